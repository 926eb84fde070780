import { copyFileSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import {
  askCharsRead,
  askPrice,
  digestAsText,
  transcriptAsText,
  type AskSeriesQuery,
  type DigestDoc,
  type TranscriptDoc,
  type TranscriptSegment,
} from '@mm/contract';
import type { Principal } from '@mm/http';
import { toneWav } from '../../../tests/support/media';
import { askMeeting, askSeries } from '../src/bus/ask-context.handler';
import { AskQuotes, askMeetingPrice, askSeriesPrice } from '../src/usecases/ask-quotes';
import { inTransaction } from '../src/db/transaction';
import { transcriptsThatFit } from '../src/domain/ask-budget';
import type { MeetingAccess } from '../src/services/access';
import { digestDoc, principal, startHarness, type Harness } from './support/harness';

/**
 * The quotes read the counts stored with the documents, the Asks read the documents: each quote
 * must price exactly what the Ask after it charges (askCharsRead of what it read), after every
 * write that changes the text as read (names, turns, the digest), for rows from before the counts,
 * and for a series whose budget leaves transcripts out.
 */
let h: Harness;
let access: MeetingAccess;
const scratch = mkdtempSync(path.join(tmpdir(), 'mm-ask-price-'));
let n = 0;

beforeAll(async () => {
  h = await startHarness();
  h.bus.namingMode = 'FORCE_OFF';
  access = h.useCases.access;
}, 60_000);
afterAll(async () => {
  await h?.close();
});

const turn = (index: number, speaker: string, text: string): TranscriptSegment => ({
  index,
  speaker,
  startMs: index * 4000,
  endMs: index * 4000 + 3500,
  text,
});
const doc = (segments: TranscriptSegment[], language = 'en'): TranscriptDoc => ({
  language,
  speakers: [...new Set(segments.map((s) => s.speaker))].map((label) => ({ label, name: null })),
  segments,
  stats: { totalTurns: segments.length },
});
const englishDoc = (words = 1) =>
  doc([
    turn(0, 'S1', 'Hello, my name is Sara and we ship on Friday.'),
    turn(1, 'S2', `Agreed${' and the release goes out Friday'.repeat(words)}.`),
    turn(2, 'S1', 'Then it is settled.'),
  ]);
const persianDoc = () =>
  doc(
    [
      turn(0, 'S1', 'سلام، من سارا هستم و نسخه‌ی تازه را جمعه می‌فرستیم.'),
      turn(1, 'S2', 'موافقم؛ بودجه‌ی فصل دوم هم تأیید شد 🙂'),
      turn(2, 'S1', 'پس تا جمعه.'),
    ],
    'fa',
  );

/** A 3-second meeting submitted, waiting for its transcript. */
async function submitted(p: Principal, fields: Record<string, string> = {}) {
  const file = path.join(scratch, `audio-${++n}.wav`);
  copyFileSync(toneWav(3), file);
  return h.useCases.submit.handle(p, 'upload', undefined, {
    check: () => undefined,
    read: async () => ({
      audio: { path: file, mimetype: 'audio/wav', originalname: 'a.wav', size: 96_044 },
      attachment: undefined,
      fields,
    }),
  });
}

/** A meeting submitted, transcribed with `transcript` (FORCE_OFF: suggested names) and digested: READY. */
async function ready(p: Principal, transcript: TranscriptDoc, fields: Record<string, string> = {}): Promise<string> {
  const r = await submitted(p, fields);
  await h.store.putJson(`work/${r.id}/transcript.json`, transcript);
  await h.useCases.results.transcribed({
    recordingId: r.id,
    jobId: r.jobId!,
    transcriptKey: `work/${r.id}/transcript.json`,
  });
  await finishDigest(r.id, digestDoc);
  return r.id;
}

/** The pipeline's digest for the meeting's current job. */
async function finishDigest(id: string, d: DigestDoc): Promise<void> {
  const { jobId } = (await h.useCases.ctx.repos.recordings.get(h.db, id))!;
  await h.store.putJson(`work/${id}/digest-${jobId}.json`, d);
  await h.useCases.digest.finish({ recordingId: id, jobId: jobId!, digestKey: `work/${id}/digest-${jobId}.json` });
}

/** The stored counts and what they count: equal after every write. */
async function stored(id: string) {
  const t = await h.db
    .selectFrom('transcript')
    .select(['speakers', 'segments', 'readChars'])
    .where('recordingId', '=', id)
    .executeTakeFirst();
  const d = await h.db
    .selectFrom('digest')
    .select(['sections', 'textChars'])
    .where('recordingId', '=', id)
    .executeTakeFirst();
  return {
    readChars: t?.readChars ?? null,
    asRead: t ? transcriptAsText(t as Pick<TranscriptDoc, 'speakers' | 'segments'>).length : null,
    textChars: d?.textChars ?? null,
    digestText: d ? digestAsText(d.sections as Record<string, unknown>[]).length : null,
  };
}

/** The meeting quote's characters and the characters its Ask is charged (as the ask service counts them). */
async function meetingQuoteAndCharge(p: Principal, id: string) {
  const quote = await askMeetingPrice(h.db, h.useCases.ctx.repos, access, p, id);
  const ask = await askMeeting(h.db, h.useCases.ctx.repos, access, p, id);
  return { quote: quote.charsRead, charge: ask.meeting ? askCharsRead('meeting', [ask.meeting]) : null };
}

async function seriesQuoteAndCharge(p: Principal, q: AskSeriesQuery) {
  const quote = await askSeriesPrice(h.db, h.useCases.ctx.repos, access, p, q);
  const ask = await askSeries(h.db, h.useCases.ctx.repos, access, p, q);
  return {
    quote,
    charge: {
      finishedCount: ask.finishedCount,
      meetingCount: ask.meetings.length,
      charsRead: askCharsRead('series', ask.meetings),
    },
    left: ask.meetings.filter((m) => m.transcript === null).map((m) => m.recordingId),
  };
}

function newSeries(id: string): void {
  h.bus.addSeries(id, 'Budget');
}

describe('a meeting quote', () => {
  it('prices what the Ask charges, with the suggested names, after a rename and after an edited turn', async () => {
    const p = principal();
    const id = await ready(p, englishDoc());
    let s = await stored(id);
    expect(s.readChars).toBe(s.asRead);
    let q = await meetingQuoteAndCharge(p, id);
    expect(q.quote).toBe(q.charge);
    // The suggestion (Sara) is in the text as read: longer than the labels alone.
    expect(q.quote).toBeGreaterThan(transcriptAsText(englishDoc()).length);

    const before = q.quote!;
    await h.useCases.naming.nameSpeakers(p, id, { S1: 'Sara Ahmadi-Rostami', S2: 'Omid' });
    s = await stored(id);
    expect(s.readChars).toBe(s.asRead);
    q = await meetingQuoteAndCharge(p, id);
    expect(q.quote).toBe(q.charge);
    // S1 (suggested "Sara") speaks twice, +15 characters each; S2 (its label) once, +2.
    expect(q.quote).toBe(before + 2 * 15 + 2);

    await h.useCases.admin.editSegment(
      p,
      id,
      1,
      'No: the release moves to the Monday after next, because of the audit.',
    );
    s = await stored(id);
    expect(s.readChars).toBe(s.asRead);
    const edited = await meetingQuoteAndCharge(p, id);
    expect(edited.quote).toBe(edited.charge);
    expect(edited.quote).not.toBe(q.quote);
  });

  it('prices Persian text and names as the Ask reads them (UTF-16 lengths, as the ask service counts)', async () => {
    const p = principal();
    const id = await ready(p, persianDoc(), { outputLanguage: 'FA' });
    await h.useCases.naming.nameSpeakers(p, id, { S1: 'سارا', S2: 'امید' });
    const s = await stored(id);
    expect(s.readChars).toBe(s.asRead);
    const q = await meetingQuoteAndCharge(p, id);
    expect(q.quote).toBe(q.charge);
    // The emoji is two UTF-16 units: a count by code points (SQL char_length) would be one short.
    const named = transcriptAsText({
      speakers: [
        { label: 'S1', name: 'سارا' },
        { label: 'S2', name: 'امید' },
      ],
      segments: persianDoc().segments,
    });
    expect(q.quote).toBe(named.length);
    expect([...named].length).toBe(named.length - 1);
  });

  it('counts a meeting written before the counts once, from its documents, and stores the count', async () => {
    const p = principal();
    const id = await ready(p, englishDoc(3));
    const counted = await meetingQuoteAndCharge(p, id);
    await sql`update recordings.transcript set read_chars = null where recording_id = ${id}`.execute(h.db);
    await sql`update recordings.digest set text_chars = null where recording_id = ${id}`.execute(h.db);
    const q = await meetingQuoteAndCharge(p, id);
    expect(q.quote).toBe(q.charge);
    expect(q.quote).toBe(counted.quote);
    // The meeting quote needs the transcript's count only: the digest's waits for a series quote.
    expect(await stored(id)).toMatchObject({ readChars: q.quote, textChars: null });
  });

  it('answers charsRead null before READY, and NOT_FOUND for another account and once purged', async () => {
    const p = principal();
    const id = await ready(p, englishDoc());
    await expect(askMeetingPrice(h.db, h.useCases.ctx.repos, access, principal(), id)).rejects.toMatchObject({
      code: 'NOT_FOUND',
    });
    await h.useCases.admin.regenerate(p, id);
    expect(await askMeetingPrice(h.db, h.useCases.ctx.repos, access, p, id)).toEqual({
      status: 'GENERATING',
      charsRead: null,
    });
    await h.useCases.admin.remove(p, id);
    await inTransaction(h.db, (trx) =>
      h.useCases.ctx.repos.recordings.purgeDeleted(trx, new Date(Date.now() + 86_400_000), 100),
    );
    expect(await stored(id)).toEqual({ readChars: null, asRead: null, textChars: null, digestText: null });
    await expect(askMeetingPrice(h.db, h.useCases.ctx.repos, access, p, id)).rejects.toMatchObject({
      code: 'NOT_FOUND',
    });
  });
  it('answers the quotes of one turn (read together) each for its own caller and meeting', async () => {
    const p = principal();
    const q = principal();
    const [short, long] = [await ready(p, englishDoc()), await ready(p, englishDoc(4))];
    const alone = await askMeetingPrice(h.db, h.useCases.ctx.repos, access, p, long);
    const price = (who: Principal, id: string) => askMeetingPrice(h.db, h.useCases.ctx.repos, access, who, id);
    const turn = await Promise.allSettled([price(p, short), price(q, short), price(p, long), price(p, 'rec_missing')]);
    expect(turn[0]).toMatchObject({ status: 'fulfilled', value: { status: 'READY' } });
    expect(turn[1]).toMatchObject({ status: 'rejected', reason: { code: 'NOT_FOUND' } });
    expect(turn[2]).toEqual({ status: 'fulfilled', value: alone });
    expect(turn[3]).toMatchObject({ status: 'rejected', reason: { code: 'NOT_FOUND' } });
    // The shorter meeting's own count, not the longer one's read in the same statement.
    expect((turn[0] as PromiseFulfilledResult<{ charsRead: number }>).value.charsRead).toBeLessThan(alone.charsRead!);
  });
});

describe('a series quote', () => {
  it('prices what the Ask charges when the budget leaves a transcript out and a later, shorter one in', async () => {
    const p = principal();
    newSeries('ser_budget');
    const at = (hoursAgo: number) => new Date(Date.now() - hoursAgo * 3_600_000).toISOString();
    // Newest first: short, long, short (Persian), short.
    const newest = await ready(p, englishDoc(1), { seriesId: 'ser_budget', recordedAt: at(1) });
    const long = await ready(p, englishDoc(40), { seriesId: 'ser_budget', recordedAt: at(2) });
    const persian = await ready(p, persianDoc(), { seriesId: 'ser_budget', recordedAt: at(3), outputLanguage: 'FA' });
    const oldest = await ready(p, englishDoc(2), { seriesId: 'ser_budget', recordedAt: at(4) });
    await h.useCases.naming.nameSpeakers(p, persian, { S1: 'سارا' });
    const lengths = await Promise.all([newest, long, persian, oldest].map(async (id) => (await stored(id)).asRead!));
    // Room for the three short ones, not for the long one.
    const budget = lengths[0] + lengths[2] + lengths[3] + 5;
    expect(transcriptsThatFit(lengths, budget)).toEqual([true, false, true, true]);

    const q = await seriesQuoteAndCharge(p, { seriesId: 'ser_budget', maxMeetings: 50, transcriptBudgetChars: budget });
    expect(q.left).toEqual([long]);
    expect(q.quote).toEqual(q.charge);
    expect(q.quote).toMatchObject({ finishedCount: 4, meetingCount: 4 });

    // Fewer meetings than finished: the newest two only, the count still of all.
    const two = await seriesQuoteAndCharge(p, {
      seriesId: 'ser_budget',
      maxMeetings: 2,
      transcriptBudgetChars: budget,
    });
    expect(two.quote).toEqual(two.charge);
    expect(two.quote).toMatchObject({ finishedCount: 4, meetingCount: 2 });

    // Quotes of one turn (read together) with other limits, and of an empty series: each as alone.
    newSeries('ser_empty');
    const price = (seriesId: string, maxMeetings: number) =>
      askSeriesPrice(h.db, h.useCases.ctx.repos, access, p, { seriesId, maxMeetings, transcriptBudgetChars: budget });
    const together = await Promise.all([
      price('ser_budget', 50),
      price('ser_budget', 2),
      price('ser_empty', 50),
      price('ser_budget', 50),
    ]);
    expect(together).toEqual([q.quote, two.quote, { finishedCount: 0, meetingCount: 0, charsRead: 0 }, q.quote]);
  });

  it('follows a rename, an edit, a rewritten digest, rows from before the counts and a purge', async () => {
    const p = principal();
    newSeries('ser_writes');
    const ids: string[] = [];
    for (const words of [1, 2, 3]) ids.push(await ready(p, englishDoc(words), { seriesId: 'ser_writes' }));
    const q = { seriesId: 'ser_writes', maxMeetings: 50, transcriptBudgetChars: 60_000 };
    const check = async () => {
      for (const id of ids) {
        const s = await stored(id);
        if (s.asRead === null) continue;
        expect(s.readChars).toBe(s.asRead);
        expect(s.textChars).toBe(s.digestText);
      }
      const r = await seriesQuoteAndCharge(p, q);
      expect(r.quote).toEqual(r.charge);
      return r.quote.charsRead;
    };
    let last = await check();
    const changed = async () => {
      const now = await check();
      expect(now).not.toBe(last);
      last = now;
    };

    await h.useCases.naming.nameSpeakers(p, ids[0], { S2: 'Omid Karimi' });
    await changed();
    await h.useCases.admin.editSegment(p, ids[1], 0, 'A much longer first turn than the one the recognizer heard.');
    await changed();

    // A regeneration writes a new digest with its own count.
    await h.useCases.admin.regenerate(p, ids[2]);
    await finishDigest(ids[2], {
      ...digestDoc,
      sections: [
        { kind: 'summary', title: 'Summary', text: 'We ship on Friday; the audit moves it by a week.' },
        { kind: 'decision_list', title: 'Decisions', items: ['Wait for the audit.'] },
        { kind: 'action_item_list', title: 'Action items', items: [{ text: 'Tell finance.', owner: 'Sara' }] },
      ],
    });
    await changed();

    // Rows from before the counts: counted from the documents by the quote, and stored.
    await sql`update recordings.transcript set read_chars = null where recording_id = any(${ids})`.execute(h.db);
    await sql`update recordings.digest set text_chars = null where recording_id = any(${ids})`.execute(h.db);
    const r = await seriesQuoteAndCharge(p, q);
    expect(r.quote).toEqual(r.charge);
    expect(r.quote.charsRead).toBe(last);
    for (const id of ids) {
      const s = await stored(id);
      expect([s.readChars, s.textChars]).toEqual([s.asRead, s.digestText]);
    }

    // A deleted meeting leaves the series' reading; purged, its documents and counts go with it.
    await h.useCases.admin.remove(p, ids[0]);
    await changed();
    await inTransaction(h.db, (trx) =>
      h.useCases.ctx.repos.recordings.purgeDeleted(trx, new Date(Date.now() + 86_400_000), 100),
    );
    expect((await stored(ids[0])).readChars).toBeNull();
    expect(await check()).toBe(last);
  });
});

/**
 * The quote routes (quoteRecordingAsk, quoteSeriesAsk) answer here: the price by the contract's
 * rule at the configured rate, the same as the Ask after it charges, and the refusals the contract
 * gives (ASK_DISABLED, ASK_NOT_READY, SERIES_ASK_TOO_FEW, and 404 for a series while Ask is off).
 */
describe('the quotes as their routes answer them', () => {
  const RATE = 100;
  let quotes: AskQuotes;
  beforeAll(() => {
    quotes = new AskQuotes(h.useCases.ctx, access, RATE);
  });

  it('price a meeting and a series by the rate, as the Ask charges', async () => {
    const p = principal();
    newSeries('ser_priced');
    const first = await ready(p, englishDoc(12), { seriesId: 'ser_priced' });
    const second = await ready(p, persianDoc(), { seriesId: 'ser_priced' });
    const charged = await askMeeting(h.db, h.useCases.ctx.repos, access, p, first);
    const chars = askCharsRead('meeting', [charged.meeting!]);
    expect(chars).toBeGreaterThan(3 * RATE);
    expect(await quotes.meeting(p, first)).toEqual({ minutes: askPrice(chars, RATE) });
    expect(askPrice(chars, RATE)).toBe(Math.ceil(chars / RATE));
    // The service's own (default rate): a short meeting costs the least, one minute.
    expect(await h.useCases.askQuotes.meeting(p, second)).toEqual({ minutes: 1 });

    const q = { seriesId: 'ser_priced', maxMeetings: 50, transcriptBudgetChars: 60_000 };
    const read = await askSeries(h.db, h.useCases.ctx.repos, access, p, q);
    expect(read.meetings).toHaveLength(2);
    expect(await quotes.series(p, 'ser_priced')).toEqual({
      minutes: askPrice(askCharsRead('series', read.meetings), RATE),
      meetingCount: 2,
    });
  });

  it('refuse as the contract says', async () => {
    const p = principal();
    const off = { ...p, features: { ...p.features, ask: false } };
    newSeries('ser_one');
    const id = await ready(p, englishDoc(1), { seriesId: 'ser_one' });
    await expect(quotes.meeting(off, id)).rejects.toMatchObject({ code: 'ASK_DISABLED' });
    await expect(quotes.series(off, 'ser_one')).rejects.toMatchObject({ code: 'NOT_FOUND' });
    await expect(quotes.series(p, 'ser_one')).rejects.toMatchObject({
      code: 'SERIES_ASK_TOO_FEW',
      message: expect.stringContaining('this one has 1'),
    });
    // Another account's meeting (outside any series): the same 404 as a missing one.
    const alone = await ready(p, englishDoc(1));
    expect(await quotes.meeting(p, alone)).toEqual({ minutes: expect.any(Number) });
    await expect(quotes.meeting(principal(), alone)).rejects.toMatchObject({ code: 'NOT_FOUND' });
    await expect(quotes.meeting(p, 'rec_missing')).rejects.toMatchObject({ code: 'NOT_FOUND' });
    await expect(quotes.series(p, 'ser_missing')).rejects.toMatchObject({ code: 'NOT_FOUND' });

    // Before READY: 409 ASK_NOT_READY, naming the status.
    const waiting = await submitted(p);
    await expect(quotes.meeting(p, waiting.id)).rejects.toMatchObject({
      code: 'ASK_NOT_READY',
      message: expect.stringContaining(`status ${waiting.status}`),
    });
  });
});
