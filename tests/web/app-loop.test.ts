import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { namingStopSentence } from '@mm/contract';
import type { BrowserContext, Page } from 'playwright-core';
import { startStack, type Stack, type TestToken } from '../support/stack';
import { launchBrowser, onStack, seriousViolations, signedInContext, type TestBrowser } from '../support/browser';
import { runMm } from '../support/run-mm';
import { speakMeeting, STANDUP_SCRIPT } from '../support/speak-meeting';
import { waitForEvent, waitForStatus } from '../support/wait';

/**
 * Issue 29's whole loop in one real browser: a three-voice meeting (flite's voices, the real
 * pipeline) uploaded in the page with naming on, followed live in the list, named in the sheet
 * opened from the status's naming.url, read, asked, edited, shared, deleted and restored; every
 * event the person's actions send is checked against the feed. Then the CLI's naming link.
 */
const PASSWORD = 'a long river of tea';
const EMAIL = 'leila@example.test';
const NAMES = ['Ana', 'Bahram', 'Cyrus', 'Dara', 'Elham'];
/**
 * The standup, its last turn an action item its speaker takes on ("I will ..."): the digest names
 * its owner by the name the sheet gave that voice, so the names show in the digest too.
 */
const LOOP_SCRIPT = [
  ...STANDUP_SCRIPT.slice(0, -1),
  ['awb', 'I will review the budget next Monday. Thank you all.'] as (typeof STANDUP_SCRIPT)[number],
];

type FeedEvent = { id: string; type: string; recordingId: string; data: { status?: string; change?: string } };

/** Reads `read` until `done` holds or `timeoutMs` pass; returns the last value read. */
async function pollFor<T>(read: () => Promise<T>, done: (v: T) => boolean, timeoutMs = 20_000): Promise<T> {
  const until = Date.now() + timeoutMs;
  let v = await read();
  while (!done(v) && Date.now() < until) {
    await new Promise((r) => setTimeout(r, 200));
    v = await read();
  }
  return v;
}

describe('the app: the whole loop (real browser)', () => {
  let stack: Stack;
  let tb: TestBrowser;
  let token: TestToken;
  let accountId: string;
  let owner: BrowserContext;
  let page: Page;
  /** The names given in the loop (the CLI's sheet suggests them later). */
  let given: string[] = [];
  const bearer = () => ({ Authorization: `Bearer ${token.value}` });
  const api = (p: string) => stack.api.get(`/api/v1${p}`).set(bearer());
  /** The feed's events of one meeting, in feed order, each event once (delivery is at least once). */
  const feedOf = async (id: string): Promise<FeedEvent[]> => {
    const res = await api('/events?limit=500');
    expect(res.status).toBe(200);
    const seen = new Set<string>();
    return (res.body.events as FeedEvent[]).filter((e) => e.recordingId === id && !seen.has(e.id) && seen.add(e.id));
  };
  const kinds = (events: FeedEvent[]) => events.map((e) => (e.data.change ? `${e.type}:${e.data.change}` : e.type));
  /** The feed once it holds `expected` for the meeting (it is written after the status moves), compared whole. */
  const feedSays = async (id: string, expected: string[]) =>
    expect(
      kinds(
        await pollFor(
          () => feedOf(id),
          (ev) => kinds(ev).length >= expected.length,
          30_000,
        ),
      ),
    ).toEqual(expected);

  beforeAll(async () => {
    // AUTO (naming on, the default mode) waits 300 s here at NAMING: long enough to reach the sheet.
    stack = await startStack({ PIPELINE_AUTO_RETRIES: '0', NAMING_AUTO_WAIT_SECONDS: '300' }, { pipeline: true });
    tb = await launchBrowser();
    const account = await stack.admin.account({ displayName: 'Leila', balanceMinutes: 100 });
    accountId = account.id;
    token = await stack.admin.token(account.id, [
      'recordings:read',
      'recordings:write',
      'recordings:query',
      'account:write',
    ]);
    owner = await signedInContext(tb.browser, stack, account.id, EMAIL, PASSWORD);
    page = await owner.newPage();
  }, 120_000);
  afterAll(async () => {
    await tb?.close();
    await stack?.stop();
  });

  it('upload → live list → naming sheet → READY with names → Ask → edit → search → share → delete → restore, the feed agreeing', async () => {
    const expected: string[] = [];
    // 1. Upload a three-voice meeting in the page, naming on (the owner's mode, AUTO).
    const spoken = await speakMeeting(LOOP_SCRIPT);
    await page.goto(`${stack.url}/app/meetings`);
    const unfinished = page.getByRole('region', { name: 'In progress and failed' });
    await unfinished.waitFor();
    const upload = await owner.newPage();
    await upload.goto(`${stack.url}/app/upload`);
    await upload.getByLabel('Audio or video file').setInputFiles(spoken.path);
    await upload.locator('#price[data-minutes]').waitFor();
    await upload.getByLabel('Title (optional)').fill('Planning');
    await upload.getByRole('button', { name: 'Send' }).click();
    await upload.waitForURL(/\/app\/recordings\/[^/?#]+$/);
    const id = /\/app\/recordings\/([^/?#]+)/.exec(upload.url())![1];
    await upload.close();
    expected.push('recording.created');

    // 2. The list, left open, shows it without a reload and follows it to NAMING.
    const item = unfinished.locator(`li:has(a[href="/app/recordings/${id}"])`);
    await item.waitFor({ timeout: 30_000 });
    await expect(item.locator('a').textContent()).resolves.toBe('Planning');
    const atNaming = await waitForStatus(
      stack,
      token.value,
      id,
      (s) => ['NAMING', 'READY', 'FAILED'].includes(s),
      240_000,
    );
    expect(atNaming.status).toBe('NAMING');
    expected.push('recording.naming_required');
    await unfinished
      .locator(`li[data-status="NAMING"]:has(a[href="/app/recordings/${id}"])`)
      .waitFor({ timeout: 30_000 });

    // 3. The sheet opens from the status's naming.url, and opening it moves naming.deadline later.
    const before = new Date(atNaming.naming.deadline as string).getTime();
    await page.setViewportSize({ width: 375, height: 800 });
    const opened = Date.now();
    await page.goto(onStack(stack.url, atNaming.naming.url));
    await expect(page.getByRole('heading', { level: 1 }).textContent()).resolves.toBe('Name the speakers');
    const after = (await api(`/recordings/${id}/status`)).body;
    expect(after.status).toBe('NAMING');
    const moved = new Date(after.naming.deadline).getTime();
    expect(moved).toBeGreaterThan(before);
    expect(moved).toBeGreaterThanOrEqual(opened + 900_000 - 1000);
    expect(await page.locator('[data-deadline]').getAttribute('data-deadline')).toBe(after.naming.deadline);

    // axe on the sheet at 375 px, in English and in Persian (a reload: the deadline stays).
    expect(await seriousViolations(page)).toEqual([]);
    await page.getByRole('button', { name: 'فارسی' }).click();
    await page.waitForFunction(() => document.documentElement.dir === 'rtl');
    expect(await seriousViolations(page)).toEqual([]);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
    await page.getByRole('button', { name: 'English' }).click();
    await page.waitForFunction(() => document.documentElement.dir === 'ltr');
    expect((await api(`/recordings/${id}/status`)).body.naming.deadline).toBe(after.naming.deadline);
    await page.setViewportSize({ width: 1280, height: 900 });

    // 4. A clip plays: the audio element's played range grows.
    const voices = page.locator('fieldset.voice');
    const count = await voices.count();
    expect(count).toBeGreaterThanOrEqual(2);
    const played = await voices
      .first()
      .locator('audio')
      .first()
      .evaluate(async (a: HTMLAudioElement) => {
        a.muted = true;
        await a.play();
        await new Promise((r) => setTimeout(r, 500));
        a.pause();
        return { ranges: a.played.length, from: a.played.length ? a.played.start(0) : 0, to: a.currentTime };
      });
    expect(played.ranges).toBeGreaterThan(0);
    expect(played.to).toBeGreaterThan(played.from);

    // 5. Name the voices; the meeting goes on to READY (the page follows it live).
    const labels = (await page.locator('fieldset.voice legend').allTextContents()).map((l) => l.replace(/^Voice /, ''));
    given = NAMES.slice(0, labels.length);
    for (const [i, label] of labels.entries()) await page.getByLabel(`Name of ${label}`).fill(given[i]);
    await page.getByRole('button', { name: 'Save names' }).click();
    await page.waitForURL(new RegExp(`/app/recordings/${id}\\?done=1$`));
    await page.getByRole('heading', { name: 'Digest' }).waitFor({ timeout: 180_000 });
    expected.push('recording.ready');
    const ready = await waitForStatus(stack, token.value, id, (s) => s === 'READY', 10_000);
    expect(ready.naming).toBeNull();
    // The list moves it out of "in progress" by itself.
    await page.goto(`${stack.url}/app/meetings`);
    await expect(page.locator(`a[href="/app/recordings/${id}"]`).count()).resolves.toBe(1);

    // 6. The names in the transcript, the digest and the bundle.
    const bundle = await api(`/recordings/${id}/bundle`);
    expect(bundle.status).toBe(200);
    const named = bundle.body.transcript.speakers.map((s: { name: string }) => s.name).sort();
    expect(named).toEqual([...given].sort());
    expect(bundle.body.transcript.markdown).toContain(given[0]);
    const md = await api(`/recordings/${id}/bundle?format=markdown`);
    for (const n of given) expect(md.text).toContain(n);
    // The digest: the action item its speaker took on is theirs by the given name.
    const owners = (bundle.body.digest.content as { kind: string; items?: { owner?: string | null }[] }[])
      .filter((x) => x.kind === 'action_item_list')
      .flatMap((x) => x.items ?? [])
      .map((x) => x.owner);
    expect(owners.filter((o) => o && given.includes(o))).toHaveLength(1);
    expect(given.some((n) => bundle.body.digest.markdown.includes(`(${n})`))).toBe(true);
    expect(bundle.body.stats.speakers.map((s: { name: string }) => s.name).sort()).toEqual([...given].sort());
    await page.goto(`${stack.url}/app/recordings/${id}`);
    expect(new Set(await page.locator('.turns strong').allTextContents())).toEqual(new Set(given));
    // The sheet now just opens the meeting.
    await page.goto(onStack(stack.url, atNaming.naming.url));
    await page.waitForURL(new RegExp(`/app/recordings/${id}$`));

    // 7. Ask: the answer's citation seeks the player.
    await page.goto(`${stack.url}/app/recordings/${id}?tab=ask`);
    await page.getByLabel('Your question').fill('When will the release ship?');
    await page.getByRole('button', { name: 'Ask', exact: true }).click();
    await page.waitForURL(/\?tab=ask#ask$/);
    const cite = page.locator('.ask-item .answer button[data-seek]').first();
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

    // 8. Rename a speaker, edit a turn; search (the API and the app's) finds the edited words.
    await page.goto(`${stack.url}/app/recordings/${id}`);
    await page.locator('input[name^="name."]').first().fill('Anahita');
    await page.getByRole('button', { name: 'Save', exact: true }).first().click();
    await page.waitForURL(/\?done=1$/);
    expected.push('recording.updated:speakers_renamed');
    await waitForEvent(stack, token.value, id, 'recording.updated');
    const turn = page.locator('#turn-1');
    await turn.getByText('Edit').click();
    await turn.getByLabel('Text of this turn').fill('The quillfeather migration finished yesterday.');
    await turn.getByRole('button', { name: 'Save' }).click();
    await page.waitForURL(/#turn-1$/);
    expected.push('recording.updated:transcript_edited');
    const found = await api('/recordings/search?q=quillfeather');
    expect(found.status).toBe(200);
    expect(found.body.items.map((x: { id: string }) => x.id)).toEqual([id]);
    await page.goto(`${stack.url}/app/meetings?q=quillfeather`);
    await expect(page.locator('.snippet').first().textContent()).resolves.toContain('quillfeather');
    expect(
      (await api(`/recordings/${id}/bundle`)).body.transcript.speakers.map((s: { name: string }) => s.name),
    ).toContain('Anahita');
    given = given.map((n, i) => (i === 0 ? 'Anahita' : n));

    // 9. A share link opens signed out; revoked, it is 404.
    await page.goto(`${stack.url}/app/recordings/${id}`);
    await page.locator('#share').getByRole('button', { name: 'Make a share link' }).click();
    const shared = onStack(stack.url, await page.getByLabel('Share link').inputValue());
    const visitor = await tb.browser.newContext();
    const v = await visitor.newPage();
    expect((await v.goto(shared))?.status()).toBe(200);
    await v.getByRole('heading', { name: 'Digest' }).waitFor();
    expect(await v.content()).toContain('quillfeather');
    await page.getByRole('link', { name: 'Back to the meeting' }).click();
    await page.locator('#share tr[data-share]').first().getByRole('button', { name: 'Revoke' }).click();
    await page.waitForURL(/\?done=1/);
    expect((await visitor.request.get(shared)).status()).toBe(404);
    await visitor.close();

    // 10. Delete: the API answers 404 and the feed says recording.deleted.
    await page.goto(`${stack.url}/app/recordings/${id}`);
    await page.getByLabel('Yes, delete this meeting').check();
    await page.getByRole('button', { name: 'Delete meeting' }).click();
    await page.waitForURL(new RegExp(`/app/recordings/${id}/deleted$`));
    expected.push('recording.deleted');
    expect((await api(`/recordings/${id}/status`)).status).toBe(404);
    expect((await api(`/recordings/${id}/bundle`)).status).toBe(404);
    await waitForEvent(stack, token.value, id, 'recording.deleted');

    // 11. Restore (the deleted page's button; the trash list is another engineer's): recording.updated restored.
    await page.getByRole('button', { name: 'Restore meeting' }).click();
    await page.waitForURL(new RegExp(`/app/recordings/${id}\\?done=1$`));
    expected.push('recording.updated:restored');
    expect((await api(`/recordings/${id}/status`)).body.status).toBe('READY');

    // Every event the person's actions sent, and no other, in the order they happened.
    await feedSays(id, expected);
    expect((await feedOf(id)).every((e) => e.data.status === undefined || typeof e.data.status === 'string')).toBe(
      true,
    );
  }, 600_000);

  it("mm submit --wait stops at NAMING with the shared sentence; its naming.url opens the sheet (sign-in first when signed out), never 404; 'one person' merges two voices", async () => {
    expect(given.length).toBeGreaterThanOrEqual(2);
    // FORCE_ON: the wait stops at NAMING with no end.
    const mode = await stack.api
      .patch('/api/v1/account/settings')
      .set(bearer())
      .send({ speakerNamingMode: 'FORCE_ON' });
    expect(mode.status).toBe(200);
    const spoken = await speakMeeting(STANDUP_SCRIPT);
    const env = {
      MM_URL: stack.url,
      MM_TOKEN: token.value,
      MM_POLL_SECONDS: '1',
      MM_CONFIG: path.join(mkdtempSync(path.join(tmpdir(), 'mm-loop-')), 'none.json'),
    };
    const sent = await runMm(['submit', spoken.path, '--wait'], env);
    expect(sent.code).toBe(12);
    const id = /^NAMING (\S+) /m.exec(`${sent.stdout}\n${sent.stderr}`)![1];
    const status = (await api(`/recordings/${id}/status`)).body;
    const printed = `${sent.stdout}\n${sent.stderr}`;
    // The CLI says the sentence the MCP server says (libs/contract), with its own way to skip.
    expect(printed).toContain(
      namingStopSentence(status.naming, `mm skip-naming ${id} && mm wait ${id} (--skip-naming never stops here)`),
    );
    const url = /open (\S+) to name them/.exec(printed)![1];
    expect(url).toBe(status.naming.url);

    // Signed out: sign-in first, then the sheet.
    const stranger = await tb.browser.newContext();
    const out = await stranger.newPage();
    const first = await out.goto(onStack(stack.url, url));
    expect(first?.status()).toBe(200);
    await out.waitForURL(/\/app\/sign-in\?next=/);
    await out.getByLabel('Email').fill(EMAIL);
    await out.getByLabel('Password', { exact: true }).fill(PASSWORD);
    await out.getByRole('button', { name: 'Sign in' }).click();
    await out.waitForURL(onStack(stack.url, url));
    await expect(out.getByRole('heading', { level: 1 }).textContent()).resolves.toBe('Name the speakers');
    await stranger.close();

    // Signed in: the sheet at once; the names the account already gave are suggested.
    const res = await page.goto(onStack(stack.url, url));
    expect(res?.status()).toBe(200);
    await expect(page.getByRole('heading', { level: 1 }).textContent()).resolves.toBe('Name the speakers');
    const known = await page
      .locator('datalist#known-names option')
      .evaluateAll((os) => os.map((o) => (o as HTMLOptionElement).value));
    expect(known).toEqual(expect.arrayContaining(given));
    await expect(page.locator('input[name^="name."][list="known-names"]').count()).resolves.toBeGreaterThan(0);

    // Another account: 404, nothing revealed.
    const other = await stack.admin.account();
    const them = await signedInContext(tb.browser, stack, other.id, 'nobody@example.test', PASSWORD);
    const theirs = await them.request.get(onStack(stack.url, url), { maxRedirects: 0 });
    expect(theirs.status()).toBe(404);
    expect(await theirs.text()).not.toContain('Voice ');
    await them.close();

    // "These two voices are one person": the sheet shows one voice fewer, the meeting stays at NAMING.
    const voicesBefore = await page.locator('fieldset.voice').count();
    expect(voicesBefore).toBeGreaterThanOrEqual(2);
    const merge = page.locator('form.merge');
    const into = await merge.locator('select[name="into"]').inputValue();
    const from = await merge.locator('select[name="from"]').inputValue();
    expect(from).not.toBe(into);
    await merge.getByRole('button', { name: 'Make them one person' }).click();
    await page.waitForURL(new RegExp(`/app/recordings/${id}/naming$`));
    await expect(page.locator('fieldset.voice').count()).resolves.toBe(voicesBefore - 1);
    expect((await api(`/recordings/${id}/status`)).body.status).toBe('NAMING');
    // Named, the merged voice's turns have one speaker in transcript, digest and bundle.
    for (const legend of await page.locator('fieldset.voice legend').allTextContents()) {
      const label = legend.replace(/^Voice /, '');
      await page.getByLabel(`Name of ${label}`).fill(label === into ? 'Merged Person' : `Other ${label}`);
    }
    await page.getByRole('button', { name: 'Save names' }).click();
    await waitForStatus(stack, token.value, id, (s) => s === 'READY', 180_000);
    const bundle = (await api(`/recordings/${id}/bundle`)).body;
    const labels = bundle.transcript.speakers.map((s: { label: string }) => s.label);
    expect(labels).toHaveLength(voicesBefore - 1);
    expect(labels).not.toContain(from);
    expect(bundle.transcript.segments.some((s: { speaker: string }) => s.speaker === from)).toBe(false);
    expect(bundle.transcript.segments.filter((s: { speaker: string }) => s.speaker === into).length).toBeGreaterThan(1);
    expect(bundle.stats.speakers.map((s: { speaker: string }) => s.speaker)).not.toContain(from);
    const md = (await api(`/recordings/${id}/bundle?format=markdown`)).text;
    expect(md).toContain('Merged Person');
    expect(md).not.toContain(from);
    expect(accountId).toBeTruthy();
  }, 480_000);
});
