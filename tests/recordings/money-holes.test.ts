import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Client } from 'pg';
import { ADMIN_KEY, startStack, type Stack } from '../support/stack';
import { toneWav } from '../support/media';
import { eventually, ledger, meetingRow, openHolds, PipelineVoice, slowSubmit } from '../support/money';
import { BUS } from '@mm/contract';

/**
 * Ways to get a meeting for free or to make two from one key, closed (issue 11, behaviour 4).
 * No pipeline runs: the test speaks as the pipeline on the stack's bus, in whatever order it likes.
 */
let stack: Stack;
let voice: PipelineVoice;
/** A model the Ask engine calls (LLM_ENGINE=openai): counts the calls, answers nothing useful. */
let model: Server;
let modelCalls = 0;
beforeAll(async () => {
  model = createServer((req, res) => {
    modelCalls++;
    req.resume();
    req.on('end', () => res.writeHead(500).end());
  });
  await new Promise<void>((resolve) => model.listen(0, '127.0.0.1', resolve));
  const askEnv = { LLM_ENGINE: 'openai', OPENAI_BASE_URL: `http://127.0.0.1:${(model.address() as AddressInfo).port}` };
  stack = await startStack({ UPLOAD_CLAIM_STALE_SECONDS: '2' }, { askEnv });
  voice = await PipelineVoice.open(stack);
}, 60_000);
afterAll(async () => {
  await voice.close();
  await stack.stop();
  await new Promise((resolve) => model.close(resolve));
});

const admin = { Authorization: `Bearer ${ADMIN_KEY}` };
const bearer = (v: string) => ({ Authorization: `Bearer ${v}` });
const SCOPES = ['recordings:write', 'recordings:read', 'account:read'];

async function newMeeting(balanceMinutes = 20) {
  const account = await stack.admin.account({ balanceMinutes });
  const token = await stack.admin.token(account.id, SCOPES);
  const res = await stack.api
    .post('/api/v1/recordings')
    .set(bearer(token.value))
    .field('naming', 'skip')
    .attach('audio', readFileSync(toneWav(3)), { filename: 'a.wav', contentType: 'audio/wav' });
  expect(res.status).toBe(202);
  return { account, token, id: res.body.recording.id as string };
}

async function failForGood(id: string) {
  const { jobId } = await meetingRow(stack, id);
  await voice.publish(BUS.jobFailed, {
    recordingId: id,
    jobId,
    step: 'transcribe',
    code: 'TRANSCRIBE_FAILED',
    final: true,
  });
  await eventually(async () => (await meetingRow(stack, id)).status === 'FAILED', 'the final failure');
  return jobId;
}

describe('money cannot be dodged', () => {
  it('charges a meeting checked again after a final failure released its hold', async () => {
    const { account, id } = await newMeeting();
    await failForGood(id);
    expect((await ledger(stack, account.id)).map((e) => e.kind)).toEqual(['hold', 'release']);

    expect((await stack.api.post(`/admin/v1/recordings/${id}/recheck`).set(admin)).status).toBe(200);
    const queued = await meetingRow(stack, id);
    expect(queued.status).toBe('QUEUED');
    await voice.transcribe(stack, id);
    await eventually(async () => (await meetingRow(stack, id)).status === 'GENERATING', 'the transcript');

    const after = await meetingRow(stack, id);
    const entries = await ledger(stack, account.id);
    const captures = entries.filter((e) => e.kind === 'capture');
    expect(captures).toHaveLength(1);
    expect(captures[0]).toMatchObject({ holdReference: `hold:${after.holdRef}`, minutes: 1 });
    expect(after.charged).toBe(true);
    expect(await openHolds(stack, account.id)).toEqual([]);
  });

  it('leaves a FAILED meeting FAILED when a late started arrives after the final failure', async () => {
    const { token, id } = await newMeeting();
    const jobId = await failForGood(id);
    await voice.publish(BUS.jobStarted, { recordingId: id, jobId, step: 'transcribe' });
    await voice.publish(BUS.jobStarted, { recordingId: id, jobId, step: 'transcribe' });
    await voice.settled();
    const status = await stack.api.get(`/api/v1/recordings/${id}/status`).set(bearer(token.value));
    expect(status.body).toMatchObject({ status: 'FAILED', error: { code: 'TRANSCRIBE_FAILED', retryable: true } });
  });
});

describe('refused for money before the expensive part (the hold, the decode)', () => {
  it('refuses a submit from an empty balance with its price, and bytes that are not audio as such', async () => {
    const account = await stack.admin.account({ balanceMinutes: 0 });
    const token = await stack.admin.token(account.id, SCOPES);
    // Not audio at all: no price to state (requiredMinutes is the price; issue 25), so the audio's refusal.
    const res = await stack.api
      .post('/api/v1/recordings')
      .set(bearer(token.value))
      .attach('audio', Buffer.alloc(50_000, 1), { filename: 'a.wav', contentType: 'audio/wav' });
    expect([res.status, res.body.error.code]).toEqual([400, 'INVALID_AUDIO']);
    const wav = await stack.api
      .post('/api/v1/recordings')
      .set(bearer(token.value))
      .attach('audio', readFileSync(toneWav(3)), { filename: 'a.wav', contentType: 'audio/wav' });
    expect([wav.status, wav.body.error.code, wav.body.error.details.requiredMinutes]).toEqual([
      402,
      'INSUFFICIENT_MINUTES',
      1,
    ]);
    expect(await ledger(stack, account.id)).toEqual([]);
  });

  it('answers a submit from an empty balance once its audio has arrived, never with a guessed price', async () => {
    const account = await stack.admin.account({ balanceMinutes: 0 });
    const token = await stack.admin.token(account.id, SCOPES);
    // The body is held back: the price is not known yet, so no answer can come.
    const upload = slowSubmit(stack, token.value, `empty-${Date.now()}`);
    const early = await Promise.race([upload.answer, new Promise<null>((r) => setTimeout(() => r(null), 1_000))]);
    expect(early).toBeNull();
    upload.finish();
    const answer = await upload.answer;
    expect([answer.status, answer.body.error.code, answer.body.error.details.requiredMinutes]).toEqual([
      402,
      'INSUFFICIENT_MINUTES',
      1,
    ]);
    expect(await ledger(stack, account.id)).toEqual([]);
  });

  it('refuses an Ask the balance cannot pay before its engine runs', async () => {
    const { account, id } = await newMeeting(1);
    await voice.finish(stack, id);
    const asker = await stack.admin.token(account.id, ['recordings:query', 'account:read']);
    const who = await stack.api.get('/api/v1/whoami').set(bearer(asker.value));
    expect(who.body.wallet.balanceMinutes).toBe(0);
    const calls = modelCalls;
    const res = await stack.api
      .post(`/api/v1/recordings/${id}/ask`)
      .set(bearer(asker.value))
      .send({ question: 'When do we ship?' });
    expect([res.status, res.body.error.code]).toEqual([402, 'INSUFFICIENT_MINUTES']);
    expect(modelCalls).toBe(calls);
  });
});

describe('Idempotency-Key claims', () => {
  it('lets a retry take over a stale claim and keeps the first request from completing it', async () => {
    const account = await stack.admin.account({ balanceMinutes: 20 });
    const token = await stack.admin.token(account.id, SCOPES);
    const key = `takeover-${Date.now()}`;
    const first = slowSubmit(stack, token.value, key);
    // The first request has claimed the key and is still sending its audio past the stale bound.
    await new Promise((r) => setTimeout(r, 3000));
    const second = await stack.api
      .post('/api/v1/recordings')
      .set(bearer(token.value))
      .set('Idempotency-Key', key)
      .attach('audio', readFileSync(toneWav(3)), { filename: 'a.wav', contentType: 'audio/wav' });
    expect(second.status).toBe(202);
    first.finish();
    const late = await first.answer;
    expect([late.status, late.body.error?.code]).toEqual([503, 'UPLOAD_IN_PROGRESS']);

    const again = await stack.api
      .post('/api/v1/recordings')
      .set(bearer(token.value))
      .set('Idempotency-Key', key)
      .attach('audio', readFileSync(toneWav(3)), { filename: 'a.wav', contentType: 'audio/wav' });
    expect([again.status, again.body.recording.id]).toEqual([202, second.body.recording.id]);
    const holds = (await ledger(stack, account.id)).filter((e) => e.kind === 'hold');
    expect(holds.map((h) => h.reference)).toContain(`hold:${second.body.recording.id}`);
    await eventually(async () => (await openHolds(stack, account.id)).length === 1, 'one open hold: the one meeting');
  }, 30_000);
});

describe('a hold whose answer timed out', () => {
  it('is let go, so the retry with the same key is not refused for the minutes it kept', async () => {
    // The balance covers one meeting: a hold left open would make the retry 402.
    const account = await stack.admin.account({ balanceMinutes: 1 });
    const token = await stack.admin.token(account.id, SCOPES);
    const key = `timeout-${Date.now()}`;
    const send = () =>
      stack.api
        .post('/api/v1/recordings')
        .set(bearer(token.value))
        .set('Idempotency-Key', key)
        .attach('audio', readFileSync(toneWav(3)), { filename: 'a.wav', contentType: 'audio/wav' });
    // Holding the account's wallet lock makes the wallet answer after the hold request's 10 s.
    const db = new Client({ connectionString: stack.env.DATABASE_URL });
    await db.connect();
    await db.query('begin');
    await db.query('insert into account.wallet (account_id) values ($1) on conflict do nothing', [account.id]);
    await db.query('select account_id from account.wallet where account_id = $1 for update', [account.id]);
    // (supertest sends on then(): start it now, while the lock is held)
    const timedOut = send().then((res) => res);
    await new Promise((r) => setTimeout(r, 11_500));
    await db.query('commit');
    await db.end();
    expect((await timedOut).status).toBe(500);

    await eventually(
      async () => (await openHolds(stack, account.id)).length === 0 && (await ledger(stack, account.id)).length === 2,
      'the late hold let go',
    );
    const retry = await send();
    expect(retry.status).toBe(202);
    expect(await openHolds(stack, account.id)).toEqual([`hold:${retry.body.recording.id}`]);
  }, 40_000);
});
