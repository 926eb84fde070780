import { Pool } from 'pg';
import { PRINCIPAL_HEADER, principalKey, signPrincipal } from '@mm/http';
import { loadConfig as recordingsConfig } from '../../services/recordings/src/config';
import { wavHeader } from '../support/media';
import { openRaw, rawRequest } from '../support/raw-http';
import { startStack, type Stack } from '../support/stack';

/**
 * An upload whose request dies before its body is read (the client cut it short, or went away
 * while the owning service was still checking its Idempotency-Key and wallet) must let its key go:
 * the same key then makes the meeting (202), never a lasting 503 UPLOAD_IN_PROGRESS. Found by
 * `pnpm fuzz` (seed 20261123): a body shorter than its Content-Length, sent and half-closed, had
 * its gateway connection closed while the recordings service awaited its admission check; the
 * multipart parser then started on a request already closed, waited for events that had passed,
 * and the claim stayed `storing` for the 15 minutes of the stale bound.
 */
let stack: Stack;
beforeAll(async () => {
  // Budgets raised: the cut uploads are many for one token.
  stack = await startStack({ RATE_LIMIT_SCALE: '1000' });
}, 60_000);
afterAll(() => stack.stop());

const BOUNDARY = 'mm-cut-upload';

function head(token: string, key: string, contentLength: number, extra: string[] = []): string {
  return [
    'POST /api/v1/recordings HTTP/1.1',
    'Host: 127.0.0.1',
    `Authorization: Bearer ${token}`,
    `Idempotency-Key: ${key}`,
    `Content-Type: multipart/form-data; boundary=${BOUNDARY}`,
    `Content-Length: ${contentLength}`,
    ...extra,
  ].join('\r\n');
}

/** A one-second WAV upload, or (`small`) a short file the size of the fuzzer's. */
function body(small = false): Buffer {
  const audio = small ? Buffer.from('RIFF0123456789') : Buffer.concat([wavHeader(64_000), Buffer.alloc(64_000)]);
  return Buffer.concat([
    Buffer.from(
      `--${BOUNDARY}\r\nContent-Disposition: form-data; name="audio"; filename="a.wav"\r\nContent-Type: audio/wav\r\n\r\n`,
    ),
    audio,
    Buffer.from(`\r\n--${BOUNDARY}--\r\n`),
  ]);
}

async function fundedToken(): Promise<{ accountId: string; tokenId: string; token: string }> {
  const account = await stack.admin.account({ balanceMinutes: 100 });
  const token = await stack.admin.token(account.id, ['recordings:write', 'recordings:read']);
  return { accountId: account.id, tokenId: token.id, token: token.value };
}

/** The account's meetings, as Postgres holds them. */
async function meetingsOf(accountId: string): Promise<number> {
  const pool = new Pool({ connectionString: stack.env.DATABASE_URL, max: 1 });
  try {
    return Number(
      (await pool.query('select count(*) as n from recordings.recording where account_id = $1', [accountId])).rows[0].n,
    );
  } finally {
    await pool.end();
  }
}

/**
 * The same key, sent whole: a 503 UPLOAD_IN_PROGRESS is accepted only while the cut request's
 * claim is being dropped (a moment), never for longer than `withinMs`.
 */
async function submitWhole(token: string, key: string, withinMs = 3_000) {
  const whole = body();
  const end = Date.now() + withinMs;
  for (;;) {
    const res = await rawRequest(stack.url, head(token, key, whole.length), whole);
    if (res.status !== 503 || Date.now() > end) return res;
    expect((res.json as { error: { code: string } }).error.code).toBe('UPLOAD_IN_PROGRESS');
    await new Promise((r) => setTimeout(r, 100));
  }
}

async function expectOneMeeting({ accountId, token }: { accountId: string; token: string }, key: string) {
  const first = await submitWhole(token, key);
  expect(first.status).toBe(202);
  const id = (first.json as { recording: { id: string } }).recording.id;
  // Replayed, never a second meeting.
  const again = await submitWhole(token, key);
  expect(again.status).toBe(202);
  expect((again.json as { recording: { id: string } }).recording.id).toBe(id);
  expect(await meetingsOf(accountId)).toBe(1);
}

describe('an upload cut off before its body was read lets its Idempotency-Key go', () => {
  it("a body shorter than its Content-Length, then half-closed (the fuzzer's case): the same key makes the meeting", async () => {
    const caller = await fundedToken();
    const key = '<script>';
    const whole = body(true);
    // Sent at once with a Content-Length 100 bytes too long, then the client's side is closed:
    // the gateway answers 400 and closes, and where the service is in its checks then varies.
    for (let i = 0; i < 10; i++) {
      const cut = await rawRequest(stack.url, head(caller.token, key, whole.length + 100), whole, true);
      // 503 only while the previous cut's claim is being dropped; the whole upload below decides.
      expect([400, 503]).toContain(cut.status);
    }
    await expectOneMeeting(caller, key);
  });

  it('a client that asked Expect: 100-continue and left before its 100: the same key makes the meeting', async () => {
    const caller = await fundedToken();
    const key = `left-${Date.now()}`;
    const conn = await openRaw(stack.url);
    conn.socket.end(`${head(caller.token, key, body().length, ['Expect: 100-continue'])}\r\n\r\n`);
    await conn.closed;
    await expectOneMeeting(caller, key);
  });

  it('ten cut uploads in a row with one key never leave it claimed', async () => {
    const caller = await fundedToken();
    const key = `many-${Date.now()}`;
    const whole = body();
    for (let i = 0; i < 10; i++) {
      const conn = await openRaw(stack.url);
      // Part of the body, then gone: the cut lands at a different point of the service's checks each time.
      conn.socket.write(`${head(caller.token, key, whole.length)}\r\n\r\n`);
      await new Promise((r) => setTimeout(r, i * 3));
      conn.socket.end(whole.subarray(0, 40 * i));
      await conn.closed;
    }
    await expectOneMeeting(caller, key);
  });

  it('a request the gateway cut while the recordings service was still checking it: the same key makes the meeting', async () => {
    // Straight to the recordings service, as the gateway sends an upload (Expect: 100-continue),
    // the connection closed before the 100: the request is gone before the multipart parser starts.
    const caller = await fundedToken();
    const key = `cut-upstream-${Date.now()}`;
    const principal = await signPrincipal(principalKey(recordingsConfig(stack.env).internalJwtSecret), {
      accountId: caller.accountId,
      displayName: null,
      source: 'token',
      tokenId: caller.tokenId,
      tokenName: 'test',
      tokenExpiresAt: null,
      scopes: ['recordings:write', 'recordings:read'],
      dailyMinuteCap: null,
      features: { series: true, ask: true, videoUpload: false, memory: true },
    });
    const direct = (contentLength: number, extra: string[]) =>
      [
        'POST /recordings HTTP/1.1',
        'Host: 127.0.0.1',
        `${PRINCIPAL_HEADER}: ${principal}`,
        `Idempotency-Key: ${key}`,
        `Content-Type: multipart/form-data; boundary=${BOUNDARY}`,
        `Content-Length: ${contentLength}`,
        ...extra,
      ].join('\r\n');
    const whole = body();
    for (let i = 0; i < 3; i++) {
      const conn = await openRaw(stack.serviceUrls.recordings);
      conn.socket.end(`${direct(whole.length, ['Expect: 100-continue'])}\r\n\r\n`);
      await conn.closed;
    }
    let res = await rawRequest(stack.serviceUrls.recordings, direct(whole.length, []), whole);
    for (const end = Date.now() + 3_000; res.status === 503 && Date.now() < end; ) {
      await new Promise((r) => setTimeout(r, 100));
      res = await rawRequest(stack.serviceUrls.recordings, direct(whole.length, []), whole);
    }
    expect(res.status).toBe(202);
    expect(await meetingsOf(caller.accountId)).toBe(1);
  });
});
