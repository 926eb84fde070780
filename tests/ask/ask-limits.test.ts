import { readFileSync } from 'node:fs';
import { startStack, type Stack, type TestToken } from '../support/stack';
import { speakMeeting, STANDUP_SCRIPT } from '../support/speak-meeting';
import { waitForStatus } from '../support/wait';

/** The service's daily limit on Asks (two here) and a token's daily cap, through the gateway. */
let stack: Stack;
let ownerToken: TestToken;
let ownerId: string;
let recordingId: string;

const bearer = (v: string) => ({ Authorization: `Bearer ${v}` });
const ask = (token: string, key?: string) => {
  const r = stack.api.post(`/api/v1/recordings/${recordingId}/ask`).set(bearer(token));
  return (key ? r.set('Idempotency-Key', key) : r).send({ question: 'When do we ship the release?' });
};
const balance = async (token: string) =>
  (await stack.api.get('/api/v1/whoami').set(bearer(token))).body.wallet.balanceMinutes as number;

beforeAll(async () => {
  stack = await startStack({ NAMING_AUTO_WAIT_SECONDS: '1', DAILY_ASK_LIMIT: '2' }, { pipeline: true });
  const owner = await stack.admin.account({ balanceMinutes: 100 });
  ownerId = owner.id;
  ownerToken = await stack.admin.token(owner.id, [
    'recordings:write',
    'recordings:read',
    'recordings:query',
    'account:read',
  ]);
  const spoken = await speakMeeting(STANDUP_SCRIPT);
  const sent = await stack.api
    .post('/api/v1/recordings')
    .set(bearer(ownerToken.value))
    .attach('audio', readFileSync(spoken.path), { filename: 'm.wav', contentType: 'audio/wav' });
  recordingId = sent.body.recording.id;
  expect(
    (await waitForStatus(stack, ownerToken.value, recordingId, (s) => s === 'READY' || s === 'FAILED', 180_000)).status,
  ).toBe('READY');
}, 240_000);
afterAll(async () => {
  await stack.stop();
});

describe('limits on Asks', () => {
  it("answers 429 TOKEN_DAILY_CAP with the cap's details when an Ask's price would pass it", async () => {
    const capped = await stack.admin.token(ownerId, ['recordings:query', 'account:read'], { dailyMinuteCap: 1 });
    const first = await ask(capped.value);
    expect(first.status).toBe(200);
    const over = await ask(capped.value);
    expect([over.status, over.body.error.code]).toEqual([429, 'TOKEN_DAILY_CAP']);
    expect(over.body.error.details).toEqual({
      capMinutes: 1,
      usedMinutes: first.body.minutes,
      requiredMinutes: first.body.minutes,
    });
    expect(Number(over.headers['retry-after'])).toBeGreaterThan(0);
  });

  it('answers 429 DAILY_LIMIT_REACHED with Retry-After past the daily Ask limit, charging nothing; a replay is still answered', async () => {
    // The capped token's Ask above already counts: one more reaches the limit of two.
    const first = await ask(ownerToken.value, 'limit-key-0001');
    expect(first.status).toBe(200);
    const before = await balance(ownerToken.value);
    const over = await ask(ownerToken.value);
    expect([over.status, over.body.error.code]).toEqual([429, 'DAILY_LIMIT_REACHED']);
    expect(Number(over.headers['retry-after'])).toBeGreaterThan(0);
    expect(await balance(ownerToken.value)).toBe(before);
    const replay = await ask(ownerToken.value, 'limit-key-0001');
    expect(replay.status).toBe(200);
    expect(replay.body).toEqual(first.body);
  });

  it('answers a replay over the rate budget with the first answer; anything else gets 429 RATE_LIMITED', async () => {
    const token = await stack.admin.token(ownerId, ['recordings:query']);
    const key = 'rate-key-0001';
    // The owner's Ask limit is used up, so these are refused, but each counts in the ask class (30 per 600 s).
    for (let i = 0; i < 30; i++) expect((await ask(token.value)).status).toBe(429);
    const limited = await ask(token.value);
    expect([limited.status, limited.body.error.code]).toEqual([429, 'RATE_LIMITED']);
    // A key this token never used is no replay.
    const unknown = await ask(token.value, key);
    expect([unknown.status, unknown.body.error.code]).toEqual([429, 'RATE_LIMITED']);
    expect(Number(unknown.headers['retry-after'])).toBeGreaterThan(0);
    // The owner token's earlier answered key: a replay, answered although its token is over budget too.
    for (let i = 0; i < 30; i++) await ask(ownerToken.value);
    expect((await ask(ownerToken.value)).body.error.code).toBe('RATE_LIMITED');
    const replay = await ask(ownerToken.value, 'limit-key-0001');
    expect(replay.status).toBe(200);
    expect(replay.body.schemaVersion).toBe(1);
    // The same key in the body (the contract: "it may also go in the body as idempotencyKey"): a
    // replay too, over budget; a body key the token never used is still refused.
    const inBody = (key: string) =>
      stack.api
        .post(`/api/v1/recordings/${recordingId}/ask`)
        .set(bearer(ownerToken.value))
        .send({ question: 'Another question entirely?', idempotencyKey: key });
    const bodyReplay = await inBody('limit-key-0001');
    expect(bodyReplay.status).toBe(200);
    expect(bodyReplay.body).toEqual(replay.body);
    const bodyUnknown = await inBody('never-used-0001');
    expect([bodyUnknown.status, bodyUnknown.body.error.code]).toEqual([429, 'RATE_LIMITED']);
    expect(Number(bodyUnknown.headers['retry-after'])).toBeGreaterThan(0);
  });
});
