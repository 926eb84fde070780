import { readFileSync } from 'node:fs';
import { Client } from 'pg';
import { startStack, ADMIN_KEY, type Stack } from '../support/stack';
import { toneWav } from '../support/media';

let stack: Stack;
beforeAll(async () => {
  stack = await startStack();
});
afterAll(async () => {
  await stack.stop();
});

const SCOPES = ['recordings:write', 'recordings:read', 'account:read'];
const send = (token: string, key: string, body: Buffer = readFileSync(toneWav(3))) =>
  stack.api
    .post('/api/v1/recordings')
    .set('Authorization', `Bearer ${token}`)
    .set('Idempotency-Key', key)
    .attach('audio', body, { filename: 'a.wav', contentType: 'audio/wav' });

async function holdsOf(accountId: string): Promise<number> {
  const db = new Client({ connectionString: stack.env.DATABASE_URL });
  await db.connect();
  const { rows } = await db.query(
    "select count(*)::int as n from account.ledger_entry where account_id = $1 and kind = 'hold'",
    [accountId],
  );
  await db.end();
  return rows[0].n;
}

async function meetingsOf(accountId: string): Promise<number> {
  const db = new Client({ connectionString: stack.env.DATABASE_URL });
  await db.connect();
  const { rows } = await db.query('select count(*)::int as n from recordings.recording where account_id = $1', [
    accountId,
  ]);
  await db.end();
  return rows[0].n;
}

describe('Idempotency-Key on POST /recordings', () => {
  it('makes exactly one meeting and one hold from 20 concurrent submits with one key', async () => {
    const account = await stack.admin.account({ balanceMinutes: 50 });
    const token = await stack.admin.token(account.id, SCOPES);
    const key = `concurrent-${Date.now()}`;
    const results = await Promise.all(Array.from({ length: 20 }, () => send(token.value, key)));
    const accepted = results.filter((r) => r.status === 202);
    expect(accepted.length).toBeGreaterThanOrEqual(1);
    for (const r of results.filter((r) => r.status !== 202)) {
      expect([r.status, r.body.error.code]).toEqual([503, 'UPLOAD_IN_PROGRESS']);
      expect(r.headers['retry-after']).toMatch(/^\d+$/);
    }
    expect(new Set(accepted.map((r) => r.body.recording.id)).size).toBe(1);
    expect(await holdsOf(account.id)).toBe(1);
    expect(await meetingsOf(account.id)).toBe(1);
    // Once stored, every repeat is a replay of the same meeting.
    const again = await send(token.value, key);
    expect([again.status, again.body.recording.id]).toEqual([202, accepted[0].body.recording.id]);
  });

  it('replays with 202 even after the balance ran out, without a second hold', async () => {
    const account = await stack.admin.account({ balanceMinutes: 1 });
    const token = await stack.admin.token(account.id, SCOPES);
    const first = await send(token.value, 'balance-key-1');
    expect(first.status).toBe(202);
    expect((await send(token.value, 'balance-key-2')).body.error.code).toBe('INSUFFICIENT_MINUTES');
    const replay = await send(token.value, 'balance-key-1');
    expect(replay.status).toBe(202);
    expect(replay.body.recording.id).toBe(first.body.recording.id);
    expect(await holdsOf(account.id)).toBe(1);
  });

  it('matches on the key alone: another file with the same key returns the first meeting', async () => {
    const account = await stack.admin.account();
    const token = await stack.admin.token(account.id, SCOPES);
    const first = await send(token.value, 'same-key-other-file');
    const second = await send(token.value, 'same-key-other-file', readFileSync(toneWav(5)));
    expect(second.body.recording.id).toBe(first.body.recording.id);
  });

  it('answers 409 IDEMPOTENCY_KEY_IN_USE for a key of another token or of the app, naming nothing', async () => {
    const account = await stack.admin.account();
    const a = await stack.admin.token(account.id, SCOPES);
    const b = await stack.admin.token(account.id, SCOPES);
    expect((await send(a.value, 'shared-key-1')).status).toBe(202);
    const other = await send(b.value, 'shared-key-1');
    expect([other.status, other.body.error.code]).toEqual([409, 'IDEMPOTENCY_KEY_IN_USE']);
    expect(JSON.stringify(other.body)).not.toContain(a.id);
    const app = await stack.api
      .post(`/admin/v1/accounts/${account.id}/recordings`)
      .set('Authorization', `Bearer ${ADMIN_KEY}`)
      .set('Idempotency-Key', 'app-key-0001')
      .attach('audio', readFileSync(toneWav(3)), { filename: 'a.wav', contentType: 'audio/wav' });
    expect(app.status).toBe(202);
    expect((await send(a.value, 'app-key-0001')).body.error.code).toBe('IDEMPOTENCY_KEY_IN_USE');
  });

  it('stores nothing for a request that answered an error: the same key runs for real next time', async () => {
    const account = await stack.admin.account();
    const token = await stack.admin.token(account.id, SCOPES);
    const bad = await send(token.value, 'error-then-ok', Buffer.from('not audio at all, really'));
    expect(bad.body.error.code).toBe('INVALID_AUDIO');
    const good = await send(token.value, 'error-then-ok');
    expect(good.status).toBe(202);
    expect(await meetingsOf(account.id)).toBe(1);
  });
});

describe('a replay over the rate budget', () => {
  it('is answered (the first meeting, 202) while every other submit of the token gets 429 RATE_LIMITED', async () => {
    const account = await stack.admin.account({ balanceMinutes: 50 });
    const token = await stack.admin.token(account.id, SCOPES);
    const key = `over-budget-${Date.now()}`;
    const first = await send(token.value, key);
    expect(first.status).toBe(202);
    // Use up the submit class (30 per 600 s) with requests that are refused cheaply.
    for (let i = 1; i < 30; i++)
      expect((await stack.api.post('/api/v1/recordings').set('Authorization', `Bearer ${token.value}`)).status).toBe(
        400,
      );
    const replay = await send(token.value, key);
    expect(replay.status).toBe(202);
    expect(replay.body.recording.id).toBe(first.body.recording.id);
    // A new key is refused by the service (sent on as replay-only), no key by the gateway itself:
    // the same refusal either way.
    const refusals = [
      await send(token.value, `${key}-new`),
      await stack.api.post('/api/v1/recordings').set('Authorization', `Bearer ${token.value}`),
    ];
    for (const res of refusals) {
      expect([res.status, res.body.error.code]).toEqual([429, 'RATE_LIMITED']);
      expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
    }
    expect(refusals[0].body.error.message).toBe(refusals[1].body.error.message);
    // The replay made nothing new: one meeting, one hold.
    expect(await meetingsOf(account.id)).toBe(1);
    expect(await holdsOf(account.id)).toBe(1);
  });
});
