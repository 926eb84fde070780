import { readFileSync } from 'node:fs';
import { createAjv } from '@mm/http';
import { ROUTES } from '@mm/contract';
import { ADMIN_KEY, startStack, type Stack, type TestToken } from '../support/stack';
import { speakMeeting, STANDUP_SCRIPT, type ScriptTurn } from '../support/speak-meeting';
import { toneWav } from '../support/media';
import { waitForStatus } from '../support/wait';

/**
 * Ask through the gateway on meetings spoken by flite and transcribed by pocketsphinx: quotes,
 * answers with citations of real turns, charges, replays, and every refusal of these routes.
 * ASK_CHARS_PER_MINUTE is low so that prices exceed one minute (PRICE_ABOVE_MAX is reachable).
 */
const RETRO_SCRIPT: ScriptTurn[] = [
  ['awb', 'Welcome to the retrospective. The budget review went well this month.'],
  ['slt', 'The mobile application crashed twice on Tuesday. We must fix the crash first.'],
  ['rms', 'We decided to hire two new engineers for the support team.'],
];

let stack: Stack;
let ownerToken: TestToken;
let ownerId: string;
let seriesId: string;
let standupId: string;
let retroId: string;

const ajv = createAjv();
const schemaOf = (operationId: string, status = 200) =>
  ajv.compile(ROUTES.find((r) => r.operationId === operationId)!.responses.find((r) => r.status === status)!.schema);
const bearer = (v: string) => ({ Authorization: `Bearer ${v}` });
const ALL = [
  'recordings:write',
  'recordings:read',
  'recordings:query',
  'series:write',
  'series:read',
  'series:query',
  'account:read',
];

async function submit(token: string, script: ScriptTurn[], title: string, series?: string): Promise<string> {
  const spoken = await speakMeeting(script);
  let req = stack.api.post('/api/v1/recordings').set(bearer(token)).field('title', title);
  if (series) req = req.field('seriesId', series);
  const res = await req.attach('audio', readFileSync(spoken.path), { filename: 'm.wav', contentType: 'audio/wav' });
  expect(res.status).toBe(202);
  return res.body.recording.id as string;
}

const balanceOf = async (token: string) =>
  (await stack.api.get('/api/v1/whoami').set(bearer(token))).body.wallet.balanceMinutes as number;

beforeAll(async () => {
  stack = await startStack({ NAMING_AUTO_WAIT_SECONDS: '1', ASK_CHARS_PER_MINUTE: '200' }, { pipeline: true });
  const owner = await stack.admin.account({ balanceMinutes: 500 });
  ownerId = owner.id;
  ownerToken = await stack.admin.token(owner.id, ALL);
  const created = await stack.api.post('/api/v1/series').set(bearer(ownerToken.value)).send({ name: 'Team meetings' });
  expect(created.status).toBe(201);
  seriesId = created.body.series.id;
  standupId = await submit(ownerToken.value, STANDUP_SCRIPT, 'Weekly standup', seriesId);
  retroId = await submit(ownerToken.value, RETRO_SCRIPT, 'Retrospective', seriesId);
  for (const id of [standupId, retroId]) {
    const done = await waitForStatus(stack, ownerToken.value, id, (s) => s === 'READY' || s === 'FAILED', 180_000);
    expect(done.status).toBe('READY');
  }
}, 400_000);
afterAll(async () => {
  await stack.stop();
});

describe('Ask on one meeting', () => {
  it('quotes a price that does not depend on the question', async () => {
    const res = await stack.api.get(`/api/v1/recordings/${standupId}/ask/quote`).set(bearer(ownerToken.value));
    expect(res.status).toBe(200);
    expect(schemaOf('quoteRecordingAsk')(res.body)).toBe(true);
    expect(res.body.minutes).toBeGreaterThan(1);
  });

  it('answers from what was said, citing real turns with [n] markers, and charges the quoted price', async () => {
    const quote = (await stack.api.get(`/api/v1/recordings/${standupId}/ask/quote`).set(bearer(ownerToken.value))).body
      .minutes as number;
    const before = await balanceOf(ownerToken.value);
    const res = await stack.api
      .post(`/api/v1/recordings/${standupId}/ask`)
      .set(bearer(ownerToken.value))
      .send({ question: 'When will we ship the release?' });
    expect(res.status).toBe(200);
    const validate = schemaOf('askRecording');
    expect(validate(res.body) || validate.errors).toBe(true);
    expect(res.body).toMatchObject({ schemaVersion: 1, refused: false, minutes: quote });
    expect(res.body.citations.length).toBeGreaterThanOrEqual(1);
    expect(res.body.citations.length).toBeLessThanOrEqual(3);
    // Markers 1..n in reading order, one per citation.
    const markers = [...(res.body.answer as string).matchAll(/\[(\d+)\]/g)].map((m) => Number(m[1]));
    expect([...new Set(markers)]).toEqual(res.body.citations.map((_: unknown, i: number) => i + 1));
    // Every citation is a real turn of the bundle, with that turn's speaker label.
    const bundle = (await stack.api.get(`/api/v1/recordings/${standupId}/bundle`).set(bearer(ownerToken.value))).body;
    for (const c of res.body.citations) {
      const turn = bundle.transcript.segments.find((s: { startMs: number }) => s.startMs === c.startMs);
      expect(turn).toBeDefined();
      expect(c.speaker).toBe(turn.speaker);
      expect(c.recordingId).toBeUndefined();
    }
    expect((res.body.answer as string).toLowerCase()).toMatch(/ship|release|friday/);
    expect(await balanceOf(ownerToken.value)).toBe(before - quote);
  });

  it('declines a question the meeting says nothing about, and charges it', async () => {
    const before = await balanceOf(ownerToken.value);
    const res = await stack.api
      .post(`/api/v1/recordings/${standupId}/ask`)
      .set(bearer(ownerToken.value))
      .send({ question: 'Which zebra painted the volcano?' });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ refused: true, citations: [] });
    expect(res.body.answer).not.toMatch(/\[\d+\]/);
    expect(await balanceOf(ownerToken.value)).toBe(before - res.body.minutes);
  });

  it('replays an Idempotency-Key: the first answer, no second charge; another token or the app gets 409', async () => {
    const key = `ask-key-${Date.now()}`;
    const first = await stack.api
      .post(`/api/v1/recordings/${standupId}/ask`)
      .set(bearer(ownerToken.value))
      .set('Idempotency-Key', key)
      .send({ question: 'Who will fix the login problem?' });
    expect(first.status).toBe(200);
    const after = await balanceOf(ownerToken.value);
    // Matching is on the key alone; the body key loses to the header.
    const again = await stack.api
      .post(`/api/v1/recordings/${standupId}/ask`)
      .set(bearer(ownerToken.value))
      .set('Idempotency-Key', ` ${key} `)
      .send({ question: 'Something else entirely?', idempotencyKey: 'another-key-123' });
    expect(again.status).toBe(200);
    expect(again.body).toEqual(first.body);
    const inBody = await stack.api
      .post(`/api/v1/recordings/${standupId}/ask`)
      .set(bearer(ownerToken.value))
      .send({ question: 'x?', idempotencyKey: key });
    expect(inBody.body).toEqual(first.body);
    expect(await balanceOf(ownerToken.value)).toBe(after);

    const other = await stack.admin.token(ownerId, ['recordings:query']);
    const taken = await stack.api
      .post(`/api/v1/recordings/${standupId}/ask`)
      .set(bearer(other.value))
      .set('Idempotency-Key', key)
      .send({ question: 'Who will fix the login problem?' });
    expect(taken.status).toBe(409);
    expect(taken.body.error.code).toBe('IDEMPOTENCY_KEY_IN_USE');

    // An Ask's key belongs to one meeting: another meeting runs it for real.
    const elsewhere = await stack.api
      .post(`/api/v1/recordings/${retroId}/ask`)
      .set(bearer(ownerToken.value))
      .set('Idempotency-Key', key)
      .send({ question: 'What crashed?' });
    expect(elsewhere.status).toBe(200);
    expect(elsewhere.body.answer).not.toEqual(first.body.answer);
    expect(await balanceOf(ownerToken.value)).toBe(after - elsewhere.body.minutes);

    // A deleted meeting's answer is not shown again through its key: 404 like any meeting out of reach.
    const admin = { Authorization: `Bearer ${ADMIN_KEY}` };
    expect((await stack.api.delete(`/admin/v1/recordings/${standupId}`).set(admin)).status).toBe(200);
    try {
      const gone = await stack.api
        .post(`/api/v1/recordings/${standupId}/ask`)
        .set(bearer(ownerToken.value))
        .set('Idempotency-Key', key)
        .send({ question: 'Who will fix the login problem?' });
      expect([gone.status, gone.body.error?.code]).toEqual([404, 'NOT_FOUND']);
    } finally {
      expect((await stack.api.post(`/admin/v1/recordings/${standupId}/restore`).set(admin)).status).toBe(200);
    }
    const back = await stack.api
      .post(`/api/v1/recordings/${standupId}/ask`)
      .set(bearer(ownerToken.value))
      .set('Idempotency-Key', key)
      .send({ question: 'Who will fix the login problem?' });
    expect(back.body).toEqual(first.body);
  });

  it('refuses a price above maxMinutes with details, charging nothing', async () => {
    const before = await balanceOf(ownerToken.value);
    const res = await stack.api
      .post(`/api/v1/recordings/${standupId}/ask`)
      .set(bearer(ownerToken.value))
      .send({ question: 'What did we decide?', maxMinutes: 1 });
    expect(res.status).toBe(409);
    expect(res.body.error.code).toBe('PRICE_ABOVE_MAX');
    expect(res.body.error.details).toEqual({ minutes: expect.any(Number), maxMinutes: 1 });
    expect(res.body.error.details.minutes).toBeGreaterThan(1);
    expect(await balanceOf(ownerToken.value)).toBe(before);
  });

  it('answers 400 VALIDATION for a bad question, an unknown field or a bad key', async () => {
    const ask = (body: object, key?: string) => {
      const r = stack.api.post(`/api/v1/recordings/${standupId}/ask`).set(bearer(ownerToken.value));
      return (key === undefined ? r : r.set('Idempotency-Key', key)).send(body);
    };
    for (const res of [
      await ask({ question: '   ' }),
      await ask({ question: 'q'.repeat(501) }),
      await ask({ question: 'ok?', extra: 1 }),
      await ask({ question: 'ok?' }, 'short'),
      await ask({ question: 'ok?', maxMinutes: 0 }),
    ]) {
      expect(res.status).toBe(400);
      expect(res.body.error.code).toBe('VALIDATION');
    }
  });

  it("answers 404 for another account's meeting and a missing one, and 409 ASK_NOT_READY before READY", async () => {
    const stranger = await stack.admin.account({ balanceMinutes: 50 });
    const strangerToken = await stack.admin.token(stranger.id, ALL);
    for (const path of [`/api/v1/recordings/${standupId}/ask/quote`, '/api/v1/recordings/rec_missing/ask/quote']) {
      const res = await stack.api.get(path).set(bearer(strangerToken.value));
      expect(res.status).toBe(404);
      expect(res.body.error.code).toBe('NOT_FOUND');
    }
    const asked = await stack.api
      .post(`/api/v1/recordings/${standupId}/ask`)
      .set(bearer(strangerToken.value))
      .send({ question: 'What did we decide?' });
    expect(asked.status).toBe(404);

    const tone = await stack.api
      .post('/api/v1/recordings')
      .set(bearer(strangerToken.value))
      .attach('audio', readFileSync(toneWav(3)), { filename: 't.wav', contentType: 'audio/wav' });
    expect(tone.status).toBe(202);
    const notReady = await stack.api
      .post(`/api/v1/recordings/${tone.body.recording.id}/ask`)
      .set(bearer(strangerToken.value))
      .send({ question: 'What did we decide?' });
    expect(notReady.status).toBe(409);
    expect(notReady.body.error.code).toBe('ASK_NOT_READY');
  });
});

describe('Ask on a series', () => {
  it('quotes the price and the meetings read, then answers citing turns of its meetings with their recordingId', async () => {
    const quote = await stack.api.get(`/api/v1/series/${seriesId}/ask/quote`).set(bearer(ownerToken.value));
    expect(quote.status).toBe(200);
    expect(schemaOf('quoteSeriesAsk')(quote.body)).toBe(true);
    expect(quote.body.meetingCount).toBe(2);
    const res = await stack.api
      .post(`/api/v1/series/${seriesId}/ask`)
      .set(bearer(ownerToken.value))
      .send({ question: 'What happened to the mobile application and the release?' });
    expect(res.status).toBe(200);
    const validate = schemaOf('askSeries');
    expect(validate(res.body) || validate.errors).toBe(true);
    expect(res.body.minutes).toBe(quote.body.minutes);
    expect(res.body.citations.length).toBeGreaterThanOrEqual(1);
    expect(res.body.citations.length).toBeLessThanOrEqual(5);
    for (const c of res.body.citations) expect([standupId, retroId]).toContain(c.recordingId);
  });

  it('answers 409 SERIES_ASK_TOO_FEW for a series with fewer than 2 finished meetings', async () => {
    const empty = await stack.api.post('/api/v1/series').set(bearer(ownerToken.value)).send({ name: 'Empty series' });
    for (const res of [
      await stack.api.get(`/api/v1/series/${empty.body.series.id}/ask/quote`).set(bearer(ownerToken.value)),
      await stack.api
        .post(`/api/v1/series/${empty.body.series.id}/ask`)
        .set(bearer(ownerToken.value))
        .send({ question: 'Anything?' }),
    ]) {
      expect(res.status).toBe(409);
      expect(res.body.error.code).toBe('SERIES_ASK_TOO_FEW');
    }
  });

  it("lets a member ask the series and its meetings, paying from the member's own balance", async () => {
    const member = await stack.admin.account({ balanceMinutes: 40 });
    const memberToken = await stack.admin.token(member.id, ALL);
    await stack.admin.addSeriesMember(seriesId, member.id);
    const ownerBefore = await balanceOf(ownerToken.value);
    const res = await stack.api
      .post(`/api/v1/series/${seriesId}/ask`)
      .set(bearer(memberToken.value))
      .send({ question: 'Who will the team hire?' });
    expect(res.status).toBe(200);
    const meeting = await stack.api
      .post(`/api/v1/recordings/${retroId}/ask`)
      .set(bearer(memberToken.value))
      .send({ question: 'Who will the team hire?' });
    expect(meeting.status).toBe(200);
    expect(await balanceOf(memberToken.value)).toBe(40 - res.body.minutes - meeting.body.minutes);
    expect(await balanceOf(ownerToken.value)).toBe(ownerBefore);
  });

  it('answers 402 INSUFFICIENT_MINUTES with the price and charges nothing when the balance is short', async () => {
    const poor = await stack.admin.account({ balanceMinutes: 0 });
    const poorToken = await stack.admin.token(poor.id, ALL);
    await stack.admin.addSeriesMember(seriesId, poor.id);
    const res = await stack.api
      .post(`/api/v1/series/${seriesId}/ask`)
      .set(bearer(poorToken.value))
      .send({ question: 'Who will the team hire?' });
    expect(res.status).toBe(402);
    expect(res.body.error.code).toBe('INSUFFICIENT_MINUTES');
    expect(res.body.error.details).toMatchObject({ requiredMinutes: expect.any(Number), balanceMinutes: 0 });
    expect(await balanceOf(poorToken.value)).toBe(0);
  });
});

describe('while Ask is switched off', () => {
  it('asks answer 409 ASK_DISABLED, the meeting quote too, and the series quote 404', async () => {
    const other = await stack.admin.account({ balanceMinutes: 40 });
    const token = await stack.admin.token(other.id, ALL);
    await stack.admin.addSeriesMember(seriesId, other.id);
    await stack.admin.patchAccount(other.id, { features: { ask: false } });
    const meeting = await stack.api
      .post(`/api/v1/recordings/${retroId}/ask`)
      .set(bearer(token.value))
      .send({ question: 'What crashed?' });
    expect([meeting.status, meeting.body.error.code]).toEqual([409, 'ASK_DISABLED']);
    const quote = await stack.api.get(`/api/v1/recordings/${retroId}/ask/quote`).set(bearer(token.value));
    expect([quote.status, quote.body.error.code]).toEqual([409, 'ASK_DISABLED']);
    const series = await stack.api
      .post(`/api/v1/series/${seriesId}/ask`)
      .set(bearer(token.value))
      .send({ question: 'What crashed?' });
    expect([series.status, series.body.error.code]).toEqual([409, 'ASK_DISABLED']);
    const seriesQuote = await stack.api.get(`/api/v1/series/${seriesId}/ask/quote`).set(bearer(token.value));
    expect([seriesQuote.status, seriesQuote.body.error.code]).toEqual([404, 'NOT_FOUND']);

    // With series switched off as well, every series is 404, the Ask on one too.
    await stack.admin.patchAccount(other.id, { features: { series: false } });
    const seriesOff = await stack.api
      .post(`/api/v1/series/${seriesId}/ask`)
      .set(bearer(token.value))
      .send({ question: 'What crashed?' });
    expect([seriesOff.status, seriesOff.body.error.code]).toEqual([404, 'NOT_FOUND']);
  });
});
