import { mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { Client } from 'pg';
import type { BrowserContext, Page } from 'playwright-core';
import { startStack, type Stack, type TestToken } from '../support/stack';
import { launchBrowser, onStack, seriousViolations, signedInContext, type TestBrowser } from '../support/browser';
import { speakMeeting, STANDUP_SCRIPT } from '../support/speak-meeting';
import { waitForEvent, waitForStatus } from '../support/wait';

/**
 * Issue 29: the naming sheet and the meeting page in a real browser, on a three-voice meeting
 * spoken by flite and transcribed by the real pipeline, with the owner's naming mode FORCE_ON.
 */
const PASSWORD = 'a long river of tea';
/** Screenshots (ignored by git; the README's are copied from here): tests/output/app/. */
const SHOTS = path.resolve(__dirname, '..', 'output', 'app');

/** Reads `read` until `done` holds or 20 s pass; returns the last value read. */
async function pollFor<T>(read: () => Promise<T>, done: (v: T) => boolean, timeoutMs = 20_000): Promise<T> {
  const until = Date.now() + timeoutMs;
  let v = await read();
  while (!done(v) && Date.now() < until) {
    await new Promise((r) => setTimeout(r, 200));
    v = await read();
  }
  return v;
}
const NAMES = ['Ana', 'Bahram', 'Cyrus', 'Dara', 'Elham'];

describe('the app: naming sheet and meeting page (real browser)', () => {
  let stack: Stack;
  let tb: TestBrowser;
  let token: TestToken;
  let owner: BrowserContext;
  let page: Page;
  let id: string;
  let namingUrl: string;
  const bearer = () => ({ Authorization: `Bearer ${token.value}` });
  const api = (path: string) => stack.api.get(`/api/v1${path}`).set(bearer());
  /** axe on the page in English, then in Persian through the language switch (the account's uiLocale), and back. */
  const axeBothLanguages = async () => {
    expect(await seriousViolations(page)).toEqual([]);
    await page.getByRole('button', { name: 'فارسی' }).click();
    await page.waitForFunction(() => document.documentElement.dir === 'rtl');
    expect(await seriousViolations(page)).toEqual([]);
    await page.getByRole('button', { name: 'English' }).click();
    await page.waitForFunction(() => document.documentElement.dir === 'ltr');
  };

  beforeAll(async () => {
    stack = await startStack({ PIPELINE_AUTO_RETRIES: '0' }, { pipeline: true });
    tb = await launchBrowser();
    const account = await stack.admin.account({ displayName: 'Nasrin', balanceMinutes: 60 });
    token = await stack.admin.token(account.id, [
      'recordings:read',
      'recordings:write',
      'recordings:query',
      'account:write',
      'series:read',
      'series:write',
    ]);
    const mode = await stack.api
      .patch('/api/v1/account/settings')
      .set(bearer())
      .send({ speakerNamingMode: 'FORCE_ON' });
    expect(mode.status).toBe(200);
    const spoken = await speakMeeting(STANDUP_SCRIPT);
    const sent = await stack.api
      .post('/api/v1/recordings')
      .set(bearer())
      .field('title', 'Retro')
      .attach('audio', readFileSync(spoken.path), { filename: 'm.wav', contentType: 'audio/wav' });
    expect(sent.status).toBe(202);
    id = sent.body.recording.id;
    owner = await signedInContext(tb.browser, stack, account.id, 'nasrin@example.test', PASSWORD);
    page = await owner.newPage();
  }, 120_000);
  afterAll(async () => {
    await tb?.close();
    await stack?.stop();
  });

  it('opens naming.url after sign-in for a signed-out browser, never 404', async () => {
    const naming = await waitForStatus(
      stack,
      token.value,
      id,
      (s) => s === 'NAMING' || s === 'READY' || s === 'FAILED',
      180_000,
    );
    expect(naming.status).toBe('NAMING');
    namingUrl = onStack(stack.url, naming.naming.url);
    const context = await tb.browser.newContext();
    const out = await context.newPage();
    await out.goto(namingUrl);
    await out.waitForURL(/\/app\/sign-in\?next=/);
    await out.getByLabel('Email').fill('nasrin@example.test');
    await out.getByLabel('Password', { exact: true }).fill(PASSWORD);
    await out.getByRole('button', { name: 'Sign in' }).click();
    await out.waitForURL(namingUrl);
    await expect(out.getByRole('heading', { level: 1 }).textContent()).resolves.toBe('Name the speakers');
    await context.close();
  }, 240_000);

  it('serves the audio by range requests to its owner only: 206 inside the file, 416 outside', async () => {
    const audio = `${stack.url}/app/recordings/${id}/audio`;
    const part = await owner.request.get(audio, { headers: { range: 'bytes=0-99' } });
    expect(part.status()).toBe(206);
    expect(part.headers()['content-range']).toMatch(/^bytes 0-99\/\d+$/);
    expect((await part.body()).subarray(0, 4).toString('latin1')).toBe('RIFF');
    const size = Number(part.headers()['content-range'].split('/')[1]);
    const outside = await owner.request.get(audio, { headers: { range: `bytes=${size}-` } });
    expect(outside.status()).toBe(416);
    expect(outside.headers()['content-range']).toBe(`bytes */${size}`);
    // Another account: the meeting, its sheet and its audio are missing, and nothing is said of them.
    const other = await stack.admin.account();
    const stranger = await signedInContext(tb.browser, stack, other.id, 'someone@example.test', PASSWORD);
    for (const path of ['', '/naming', '/audio', '/bundle.md']) {
      const res = await stranger.request.get(`${stack.url}/app/recordings/${id}${path}`, { maxRedirects: 0 });
      expect([path, res.status()]).toEqual([path, 404]);
      expect(await res.text()).not.toContain('Retro');
    }
    const refused = await stranger.request.post(`${stack.url}/app/recordings/${id}/delete`, {
      form: { confirm: 'yes' },
      headers: { origin: stack.url },
      maxRedirects: 0,
    });
    expect(refused.status()).toBe(403); // no CSRF token of this session: refused before the app
    await stranger.close();
  });

  it('names the three voices in the sheet (clips to play), and the meeting goes on to READY with the names in the bundle', async () => {
    await page.goto(namingUrl);
    const voices = page.locator('fieldset.voice');
    // As many voices as the transcript has speakers (three voices spoke; the service tells them apart).
    const sheet = await voices.count();
    expect(sheet).toBeGreaterThanOrEqual(2);
    // Each voice has clips of the meeting's own audio, cut by media fragments; one plays.
    const src = await voices.first().locator('audio').first().getAttribute('src');
    expect(src).toMatch(new RegExp(`/app/recordings/${id}/audio#t=\\d+\\.\\d+,\\d+\\.\\d+$`));
    const played = await voices
      .first()
      .locator('audio')
      .first()
      .evaluate(async (a: HTMLAudioElement) => {
        a.muted = true;
        await a.play();
        await new Promise((r) => setTimeout(r, 300));
        return a.currentTime;
      });
    expect(played).toBeGreaterThan(0);
    mkdirSync(SHOTS, { recursive: true });
    await page.screenshot({ path: path.join(SHOTS, 'naming-sheet-en-1280.png'), fullPage: true });
    await axeBothLanguages();
    const labels = await page.locator('fieldset.voice legend').allTextContents();
    for (const [i, legend] of labels.entries()) {
      const label = legend.replace(/^Voice /, '');
      await page.getByLabel(`Name of ${label}`).fill(NAMES[i]);
    }
    await page.getByRole('button', { name: 'Save names' }).click();
    await page.waitForURL(new RegExp(`/app/recordings/${id}\\?done=1$`));
    // The page follows the meeting live (its script polls the status) until the digest shows.
    await page.getByRole('heading', { name: 'Digest' }).waitFor({ timeout: 120_000 });
    const bundle = await api(`/recordings/${id}/bundle`);
    expect(bundle.status).toBe(200);
    expect(bundle.body.transcript.speakers.map((s: { name: string }) => s.name).sort()).toEqual(NAMES.slice(0, sheet));
    const md = await api(`/recordings/${id}/bundle?format=markdown`);
    for (const n of NAMES.slice(0, sheet)) expect(md.text).toContain(n);
    // The transcript on the page speaks with the names too; the sheet now opens the meeting.
    const turnNames = await page.locator('.turns strong').allTextContents();
    expect(new Set(turnNames)).toEqual(new Set(NAMES.slice(0, sheet)));
    await page.goto(namingUrl);
    await page.waitForURL(new RegExp(`/app/recordings/${id}$`));
  }, 180_000);

  it('shows the meeting: date, length, digest, transcript with times; downloads; clicking a turn seeks the player', async () => {
    await page.goto(`${stack.url}/app/recordings/${id}`);
    await expect(page.getByRole('heading', { level: 1 }).textContent()).resolves.toBe('Retro');
    await expect(page.locator('[data-status]').textContent()).resolves.toBe('Ready');
    await expect(page.locator('.facts dt').allTextContents()).resolves.toEqual(
      expect.arrayContaining(['Date', 'Length', 'Speakers']),
    );
    const download = await owner.request.get(`${stack.url}/app/recordings/${id}/bundle.md`);
    expect(download.headers()['content-disposition']).toMatch(/^attachment/);
    expect(await download.text()).toContain('# Retro');
    const json = await owner.request.get(`${stack.url}/app/recordings/${id}/bundle.json`);
    expect((await json.json()).recording.id).toBe(id);
    const seek = page.locator('button[data-seek]').nth(2);
    const to = Number(await seek.getAttribute('data-seek')) / 1000;
    expect(to).toBeGreaterThan(1);
    await page.locator('#player').evaluate((a: HTMLAudioElement) => (a.muted = true));
    await seek.click();
    expect(
      await pollFor(
        () => page.locator('#player').evaluate((a: HTMLAudioElement) => a.currentTime),
        (t) => t >= to - 0.05,
      ),
    ).toBeGreaterThanOrEqual(to - 0.05);
    const turnId = await seek.locator('xpath=ancestor::li').getAttribute('id');
    expect(
      await pollFor(
        () =>
          page
            .locator('li.current')
            .first()
            .getAttribute('id', { timeout: 500 })
            .catch(() => null),
        (x) => x === turnId,
      ),
    ).toBe(turnId);
    await page.screenshot({ path: path.join(SHOTS, 'meeting-page-en-1280.png'), fullPage: true });
    await axeBothLanguages();
  }, 60_000);

  it('asks in the Ask tab: the quote, the answer with citations that seek the player, the earlier questions; a form sent twice asks once', async () => {
    await page.goto(`${stack.url}/app/recordings/${id}`);
    await page.getByRole('link', { name: 'Ask' }).click();
    await page.waitForURL(/\?tab=ask$/);
    const quote = await page.locator('#ask-quote').textContent();
    const minutes = Number(/costs (\d+) minutes?\b/.exec(quote ?? '')?.[1]);
    expect(minutes).toBeGreaterThanOrEqual(1);
    const api = await stack.api.get(`/api/v1/recordings/${id}/ask/quote`).set(bearer());
    expect(api.body.minutes).toBe(minutes);
    await expect(page.getByText('No questions asked yet.').count()).resolves.toBe(1);
    await page.getByLabel('Your question').fill('When will the release ship?');
    // The same form sent twice (a double click, a resend): the page's key makes it one Ask.
    const key = await page.locator('input[name="key"]').inputValue();
    const csrf = await page.locator('input[name="_csrf"]').first().inputValue();
    await page.getByRole('button', { name: 'Ask', exact: true }).click();
    await page.waitForURL(/\?tab=ask#ask$/);
    const again = await owner.request.post(`${stack.url}/app/recordings/${id}/ask`, {
      form: { _csrf: csrf, key, maxMinutes: String(minutes), question: 'When will the release ship?' },
      headers: { origin: stack.url },
      maxRedirects: 0,
    });
    expect(again.status()).toBe(303);
    await page.reload();
    const items = page.locator('.ask-item');
    await expect(items.count()).resolves.toBe(1);
    await expect(items.first().locator('.question').textContent()).resolves.toBe('When will the release ship?');
    const answer = (await items.first().locator('.answer').textContent()) ?? '';
    expect(answer.length).toBeGreaterThan(10);
    // A citation seeks the player to the cited moment.
    const cite = items.first().locator('.answer button[data-seek]').first();
    await expect(cite.count()).resolves.toBe(1);
    const to = Number(await cite.getAttribute('data-seek')) / 1000;
    await page.locator('#player').evaluate((a: HTMLAudioElement) => (a.muted = true));
    await cite.click();
    expect(
      await pollFor(
        () => page.locator('#player').evaluate((a: HTMLAudioElement) => a.currentTime),
        (t) => Math.abs(t - to) < 1.5,
      ),
    ).toBeGreaterThanOrEqual(to - 0.05);
    // Earlier questions stay: a second question lists both, newest first.
    await page.getByLabel('Your question').fill('Who will fix the login problem?');
    await page.getByRole('button', { name: 'Ask', exact: true }).click();
    await page.waitForURL(/\?tab=ask#ask$/);
    await expect(page.locator('.ask-item .question').allTextContents()).resolves.toEqual([
      'Who will fix the login problem?',
      'When will the release ship?',
    ]);
    await page.screenshot({ path: path.join(SHOTS, 'meeting-ask-en-1280.png'), fullPage: true });
    await axeBothLanguages();
    // Another account sees neither the tab's questions nor can ask them.
    const other = await stack.admin.account();
    const stranger = await signedInContext(tb.browser, stack, other.id, 'asker@example.test', PASSWORD);
    const res = await stranger.request.get(`${stack.url}/app/recordings/${id}?tab=ask`);
    expect(res.status()).toBe(404);
    expect(await res.text()).not.toContain('release ship');
    await stranger.close();
  }, 90_000);

  it('shares the meeting: the link opens signed out (digest, transcript, audio as ticked, nothing else of the account); revoked or expired → 404', async () => {
    await page.goto(`${stack.url}/app/recordings/${id}`);
    const share = page.locator('#share');
    await share.getByLabel('Include the audio').check();
    await share.getByRole('button', { name: 'Make a share link' }).click();
    const link = await page.getByLabel('Share link').inputValue();
    // 256 random bits in the link (43 base64url characters), on the app's public address.
    expect(link).toMatch(/^http:\/\/127\.0\.0\.1:8080\/app\/s\/[A-Za-z0-9_-]{43}$/);
    const secret = link.split('/').pop()!;
    const shared = `${stack.url}/app/s/${secret}`;
    const visitor = await tb.browser.newContext();
    const v = await visitor.newPage();
    await v.setViewportSize({ width: 375, height: 800 });
    const opened = await v.goto(shared);
    expect(opened?.status()).toBe(200);
    await expect(v.getByRole('heading', { level: 1 }).textContent()).resolves.toBe('Retro');
    await v.getByRole('heading', { name: 'Digest' }).waitFor();
    await expect(v.locator('.turns li').count()).resolves.toBeGreaterThan(2);
    const html = await v.content();
    // Nothing else of the account: no owner's name, no series, no navigation, no actions, no Ask.
    for (const word of ['Nasrin', 'Retros', 'Sign out', 'Delete meeting', 'Ask'])
      expect([word, html.includes(word)]).toEqual([word, false]);
    const part = await visitor.request.get(`${shared}/audio`, { headers: { range: 'bytes=0-99' } });
    expect(part.status()).toBe(206);
    expect(await seriousViolations(v)).toEqual([]);
    await v.goto(`${shared}?lang=fa`);
    expect(await seriousViolations(v)).toEqual([]);
    expect(await v.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
    // A guessed link finds nothing.
    expect((await visitor.request.get(`${stack.url}/app/s/${'A'.repeat(43)}`)).status()).toBe(404);
    // Another account cannot revoke it (404), and never sees the owner's links.
    await page.getByRole('link', { name: 'Back to the meeting' }).click();
    await expect(page.locator('#share td').nth(3).textContent()).resolves.toBe('Working');
    const shareId = await page.locator('tr[data-share]').first().getAttribute('data-share');
    const other = await stack.admin.account();
    const stranger = await signedInContext(tb.browser, stack, other.id, 'sharer@example.test', PASSWORD);
    const sp = await stranger.newPage();
    await sp.goto(`${stack.url}/app/`);
    const csrf = await sp.locator('input[name="_csrf"]').first().inputValue();
    const revokeOther = await stranger.request.post(`${stack.url}/app/recordings/${id}/shares/${shareId}/revoke`, {
      form: { _csrf: csrf },
      headers: { origin: stack.url },
      maxRedirects: 0,
    });
    expect(revokeOther.status()).toBe(404);
    const makeOther = await stranger.request.post(`${stack.url}/app/recordings/${id}/shares`, {
      form: { _csrf: csrf, expiry: '7' },
      headers: { origin: stack.url },
      maxRedirects: 0,
    });
    expect(makeOther.status()).toBe(404);
    await stranger.close();
    // Revoked by its owner: 404 at once, the audio too.
    await page.locator(`tr[data-share="${shareId}"]`).getByRole('button', { name: 'Revoke' }).click();
    await page.waitForURL(/\?done=1/);
    await expect(page.locator(`tr[data-share="${shareId}"] td`).nth(3).textContent()).resolves.toBe('Revoked');
    expect((await visitor.request.get(shared)).status()).toBe(404);
    expect((await visitor.request.get(`${shared}/audio`)).status()).toBe(404);
    // Expired: a link made without audio, whose time is then up.
    await page.locator('#share').getByRole('button', { name: 'Make a share link' }).click();
    const second = `${stack.url}/app/s/${(await page.getByLabel('Share link').inputValue()).split('/').pop()}`;
    expect((await visitor.request.get(second)).status()).toBe(200);
    expect((await visitor.request.get(`${second}/audio`)).status()).toBe(404);
    const db = new Client({ connectionString: stack.env.DATABASE_URL });
    await db.connect();
    await db.query(
      `update web.share_link set expires_at = now() - interval '1 second' where recording_id = $1 and revoked_at is null`,
      [id],
    );
    await db.end();
    expect((await visitor.request.get(second)).status()).toBe(404);
    await visitor.close();
  }, 90_000);

  it('renames the meeting and a speaker, edits a turn (search finds the edited words); the feed says so', async () => {
    await page.goto(`${stack.url}/app/recordings/${id}`);
    await page.getByLabel('Meeting title').fill('Retro of May');
    await page.getByRole('button', { name: 'Rename' }).click();
    await page.waitForURL(/\?done=1$/);
    await expect(page.getByRole('heading', { level: 1 }).textContent()).resolves.toBe('Retro of May');
    const first = await page.locator('input[name^="name."]').first();
    await first.fill('Anahita');
    await page.getByRole('button', { name: 'Save', exact: true }).first().click();
    await page.waitForURL(/\?done=1$/);
    await waitForEvent(stack, token.value, id, 'recording.updated');
    const turn = page.locator('#turn-1');
    await turn.getByText('Edit').click();
    await turn.getByLabel('Text of this turn').fill('The zephyrquill migration finished yesterday.');
    await turn.getByRole('button', { name: 'Save' }).click();
    await page.waitForURL(/#turn-1$/);
    await expect(page.locator('#turn-1 .turn-text').textContent()).resolves.toContain('zephyrquill');
    const found = await api('/recordings/search?q=zephyrquill');
    expect(found.body.items.map((x: { id: string }) => x.id)).toEqual([id]);
    const events = await api('/events?limit=500');
    const changes = events.body.events
      .filter((e: { recordingId: string; type: string }) => e.recordingId === id && e.type === 'recording.updated')
      .map((e: { data: { change: string } }) => e.data.change);
    expect(changes).toEqual(expect.arrayContaining(['renamed', 'speakers_renamed', 'transcript_edited']));
    const bundle = await api(`/recordings/${id}/bundle`);
    expect(bundle.body.transcript.speakers.map((s: { name: string }) => s.name)).toContain('Anahita');
  }, 60_000);

  it('moves the meeting into a series; the series url lists it; the meetings list filters and searches with snippets', async () => {
    const made = await stack.api.post('/api/v1/series').set(bearer()).send({ name: 'Retros' });
    expect(made.status).toBe(201);
    const seriesId = made.body.series.id as string;
    await page.goto(`${stack.url}/app/recordings/${id}`);
    await page.locator('select[name="seriesId"]').selectOption(seriesId);
    await page.getByRole('button', { name: 'Move' }).click();
    await page.waitForURL(/\?done=1$/);
    await waitForEvent(stack, token.value, id, 'recording.updated');
    const listed = await api('/series/readable');
    const url = listed.body.items.find((x: { id: string }) => x.id === seriesId).url as string;
    await page.goto(onStack(stack.url, url));
    await expect(page.getByRole('heading', { level: 1 }).textContent()).resolves.toBe('Retros');
    await expect(page.locator(`a[href="/app/recordings/${id}"]`).count()).resolves.toBe(1);
    await axeBothLanguages();
    await page.goto(`${stack.url}/app/series`);
    await expect(page.getByRole('link', { name: 'Retros' }).count()).resolves.toBe(1);
    await axeBothLanguages();
    await page.goto(`${stack.url}/app/meetings?q=zephyrquill`);
    await expect(page.locator('.snippet').first().textContent()).resolves.toContain('zephyrquill');
    await page.goto(`${stack.url}/app/meetings?kind=LECTURE`);
    await expect(page.locator(`a[href="/app/recordings/${id}"]`).count()).resolves.toBe(0);
    await page.goto(`${stack.url}/app/meetings?seriesId=${seriesId}&kind=MEETING`);
    await expect(page.locator(`a[href="/app/recordings/${id}"]`).count()).resolves.toBe(1);
    await axeBothLanguages();
    const events = await api('/events?limit=500');
    expect(
      events.body.events.some(
        (e: { recordingId: string; type: string; data: { change?: string } }) =>
          e.recordingId === id && e.data.change === 'series_changed',
      ),
    ).toBe(true);
  }, 60_000);

  it('deletes with confirmation (the API answers 404, the feed says recording.deleted) and restores (recording.updated restored)', async () => {
    await page.goto(`${stack.url}/app/recordings/${id}`);
    await page.getByRole('button', { name: 'Delete meeting' }).click();
    // Not confirmed: the browser keeps the form (the box is required), nothing is deleted.
    expect((await api(`/recordings/${id}/status`)).status).toBe(200);
    await page.getByLabel('Yes, delete this meeting').check();
    await page.getByRole('button', { name: 'Delete meeting' }).click();
    await page.waitForURL(new RegExp(`/app/recordings/${id}/deleted$`));
    expect((await api(`/recordings/${id}/status`)).status).toBe(404);
    expect((await owner.request.get(`${stack.url}/app/recordings/${id}`)).status()).toBe(404);
    await waitForEvent(stack, token.value, id, 'recording.deleted');
    await axeBothLanguages();
    await page.getByRole('button', { name: 'Restore meeting' }).click();
    await page.waitForURL(new RegExp(`/app/recordings/${id}\\?done=1$`));
    expect((await api(`/recordings/${id}/status`)).status).toBe(200);
    const restored = async () => {
      const events = await api('/events?limit=500');
      return events.body.events.filter(
        (e: { recordingId: string; type: string; data: { change?: string } }) =>
          e.recordingId === id && e.type === 'recording.updated' && e.data.change === 'restored',
      ).length;
    };
    expect(await pollFor(restored, (n) => n > 0)).toBe(1);
  }, 60_000);
});
