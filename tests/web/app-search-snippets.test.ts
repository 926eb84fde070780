import { readFileSync } from 'node:fs';
import type { Page } from 'playwright-core';
import { normalizeForSearch } from '../../libs/text/src/search';
import { startStack, type Stack, type TestToken } from '../support/stack';
import { launchBrowser, seriousViolations, signedInContext, type TestBrowser } from '../support/browser';
import { speakMeeting, STANDUP_SCRIPT } from '../support/speak-meeting';
import { waitForStatus } from '../support/wait';
import { WhisperStandin } from '../support/whisper-standin';

/**
 * Issue 29: the meetings list's search box in a real browser. It searches the recordings (the
 * search behind GET /api/v1/recordings/search, English and Persian normalisation) across the
 * account's meetings and its joined series' meetings, shows snippets with the matched words
 * marked, and each snippet opens the meeting at the moment it was said (`?at=<ms>`).
 * The Whisper stand-in hears the same spoken standup in English, then in Persian words.
 */
type Segment = { startMs: number; text: string };

describe('the app: search with snippets in the meetings list (real browser, en and fa)', () => {
  let standin: WhisperStandin;
  let stack: Stack;
  let tb: TestBrowser;
  let ownerToken: TestToken;
  let english: string;
  let persian: string;
  let seriesId: string;
  let ownerId: string;
  const bearer = (t: TestToken) => ({ Authorization: `Bearer ${t.value}` });
  const segmentsOf = async (id: string): Promise<Segment[]> =>
    (await stack.api.get(`/api/v1/recordings/${id}/bundle`).set(bearer(ownerToken))).body.transcript.segments;
  /** Where search finds a word first: the first turn whose normalised text holds it. */
  const firstTurnWith = (segments: Segment[], word: string) =>
    segments.find((s) => normalizeForSearch(s.text).includes(normalizeForSearch(word)))!;
  const send = async (extra: Record<string, string>) => {
    const spoken = await speakMeeting(STANDUP_SCRIPT);
    let req = stack.api.post('/api/v1/recordings').set(bearer(ownerToken)).field('naming', 'skip');
    for (const [k, v] of Object.entries(extra)) req = req.field(k, v);
    const res = await req.attach('audio', readFileSync(spoken.path), { filename: 'm.wav', contentType: 'audio/wav' });
    expect(res.status).toBe(202);
    const id = res.body.recording.id as string;
    const done = await waitForStatus(stack, ownerToken.value, id, (s) => s === 'READY' || s === 'FAILED', 180_000);
    expect(done.status).toBe('READY');
    return id;
  };
  /** Types the words in the search box and sends the form. */
  const search = async (page: Page, label: string, words: string) => {
    await page.getByRole('searchbox', { name: label }).fill(words);
    await page.getByRole('searchbox', { name: label }).press('Enter');
    await page.waitForLoadState();
  };

  beforeAll(async () => {
    standin = await WhisperStandin.start({ persian: false });
    stack = await startStack(
      { ASR_ENGINE: 'openai', OPENAI_BASE_URL: standin.url, OPENAI_API_KEY: 'sk-standin' },
      { pipeline: true },
    );
    tb = await launchBrowser();
    const owner = await stack.admin.account({ displayName: 'Leila', balanceMinutes: 100 });
    ownerId = owner.id;
    ownerToken = await stack.admin.token(owner.id, ['recordings:read', 'recordings:write', 'series:write']);
    const series = await stack.api.post('/api/v1/series').set(bearer(ownerToken)).send({ name: 'جلسه‌های هفتگی' });
    expect(series.status).toBe(201);
    seriesId = series.body.series.id;
    english = await send({ title: 'English standup' });
    // The same standup heard in Persian words, filed in the series the second account joins.
    standin.options.persian = true;
    persian = await send({ title: 'جلسهٔ فارسی', seriesId });
  }, 420_000);
  afterAll(async () => {
    await tb?.close();
    await stack?.stop();
    await standin?.close();
  });

  it('finds an English word, marks it in the snippet, and the snippet opens the meeting at that moment', async () => {
    const segments = await segmentsOf(english);
    const word = segments
      .flatMap((s) => s.text.split(/\s+/))
      .find((w) => /^[a-z]{5,}$/.test(w) && !/^(about|there|their|which|would)$/.test(w))!;
    expect(word).toBeDefined();
    const turn = firstTurnWith(segments, word);
    const context = await signedInContext(tb.browser, stack, ownerId, 'leila@example.test');
    const page = await context.newPage();
    await page.goto(`${stack.url}/app/meetings`);
    await search(page, 'Search meetings', word.toUpperCase());
    const hit = page.locator(`a[href*="/app/recordings/${english}?at="]`);
    expect(await hit.count()).toBe(1);
    expect(await hit.getAttribute('href')).toBe(`/app/recordings/${english}?at=${turn.startMs}`);
    const marked = await hit.locator('mark').allTextContents();
    expect(marked.length).toBeGreaterThanOrEqual(1);
    expect(marked.every((m) => normalizeForSearch(m).includes(word))).toBe(true);
    expect(await seriousViolations(page)).toEqual([]);
    await hit.click();
    await page.waitForURL(`**/app/recordings/${english}?at=${turn.startMs}`);
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toContain('English standup');
    // The player plays from that moment (the click on the snippet lets the page play).
    await page.waitForFunction(
      (s) => {
        const a = document.querySelector('audio');
        return !!a && !a.paused && a.currentTime >= s;
      },
      turn.startMs / 1000,
      { timeout: 10_000 },
    );
    await context.close();
  });

  it("finds a joined series' Persian meeting by a Persian word written with Arabic letters, in the Persian app", async () => {
    const segments = await segmentsOf(persian);
    const word = segments.flatMap((s) => s.text.split(/\s+/)).find((w) => /[یک]/.test(w) && w.length >= 4)!;
    expect(word).toBeDefined();
    const arabic = word.replace(/ی/g, 'ي').replace(/ک/g, 'ك');
    const turn = firstTurnWith(segments, word);
    const member = await stack.admin.account({ displayName: 'Babak' });
    expect((await stack.admin.addSeriesMember(seriesId, member.id)).status).toBe(200);
    const context = await signedInContext(tb.browser, stack, member.id, 'babak@example.test');
    const page = await context.newPage();
    await page.goto(`${stack.url}/app/meetings`);
    await page.getByRole('button', { name: 'فارسی' }).click();
    await page.waitForFunction(() => document.documentElement.dir === 'rtl');
    await page.goto(`${stack.url}/app/meetings`);
    await search(page, 'جستجو در جلسه‌ها', arabic);
    const hit = page.locator(`a[href*="/app/recordings/${persian}?at="]`);
    expect(await hit.count()).toBe(1);
    expect(await hit.getAttribute('href')).toBe(`/app/recordings/${persian}?at=${turn.startMs}`);
    const marked = await hit.locator('mark').allTextContents();
    expect(marked.some((m) => m.includes(word))).toBe(true);
    // The member's search holds no meeting of the owner outside the series.
    expect(await page.locator(`a[href*="/app/recordings/${english}"]`).count()).toBe(0);
    expect(await seriousViolations(page)).toEqual([]);
    // The series titles the meeting by its date: the meeting's own title is shown beneath, in the list and on its page.
    const card = page.locator('li.card').filter({ has: hit });
    expect(await card.locator('p.subtitle').textContent()).toBe('جلسهٔ فارسی');
    await hit.click();
    await page.waitForURL(`**/app/recordings/${persian}?at=${turn.startMs}`);
    // A SESSION series titles its meetings by its name and the date.
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toContain('جلسه‌های هفتگی');
    expect(await page.locator('p.subtitle').textContent()).toBe('جلسهٔ فارسی');
    await context.close();
  });
});
