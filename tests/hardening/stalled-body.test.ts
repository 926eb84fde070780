import { toneWav } from '../support/media';
import { readFileSync } from 'node:fs';
import { openRaw } from '../support/raw-http';
import { startStack, type Stack } from '../support/stack';

/**
 * A body that stops arriving (a Content-Length larger than what is sent, a client gone quiet
 * mid-upload) is answered 400 VALIDATION once nothing came for BODY_IDLE_TIMEOUT_SECONDS, and
 * its connection closed, instead of holding a connection and a handler for the ~18 minutes a whole
 * upload may take. A slow body that keeps coming is read to the end; nothing is half-written.
 */
let stack: Stack;
beforeAll(async () => {
  stack = await startStack({ BODY_IDLE_TIMEOUT_SECONDS: '1' });
}, 60_000);
afterAll(() => stack.stop());

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

const open = () => openRaw(stack.url);

function head(method: string, path: string, token: string, headers: Record<string, string | number>): string {
  return [
    `${method} ${path} HTTP/1.1`,
    'Host: 127.0.0.1',
    `Authorization: Bearer ${token}`,
    ...Object.entries(headers).map(([k, v]) => `${k}: ${v}`),
    '',
    '',
  ].join('\r\n');
}

describe('a request body that stops arriving', () => {
  it('is answered 400 VALIDATION within moments of the idle limit, and the connection closed', async () => {
    const account = await stack.admin.account();
    const token = await stack.admin.token(account.id, ['account:write', 'account:read']);
    const conn = await open();
    const started = Date.now();
    conn.socket.write(
      head('PATCH', '/api/v1/account/settings', token.value, {
        'Content-Type': 'application/json',
        'Content-Length': 100,
      }) + '{"speakerNamingMode"',
    );
    const closedAt = await Promise.race([conn.closed, sleep(10_000).then(() => null)]);
    expect(closedAt).not.toBeNull();
    expect(closedAt! - started).toBeLessThan(5_000);
    const text = conn.received();
    expect(text).toMatch(/^HTTP\/1\.1 400 /);
    expect(text).toContain('"code":"VALIDATION"');
    expect(text).toContain('stopped arriving');
  });

  it('reads a slow body that keeps coming to the end', async () => {
    const account = await stack.admin.account();
    const token = await stack.admin.token(account.id, ['account:write', 'account:read']);
    const body = '{"speakerNamingMode":"FORCE_ON"}';
    const conn = await open();
    conn.socket.write(
      head('PATCH', '/api/v1/account/settings', token.value, {
        'Content-Type': 'application/json',
        'Content-Length': body.length,
        Connection: 'close',
      }),
    );
    // One byte every 120 ms: ~4 s in all, never 1 s without a byte.
    for (const ch of body) {
      conn.socket.write(ch);
      await sleep(120);
    }
    await conn.closed;
    expect(conn.received()).toMatch(/^HTTP\/1\.1 200 /);
    expect(conn.received()).toContain('FORCE_ON');
  });

  it('refuses an upload that stalls half-way, and its key then sends the meeting for real', async () => {
    const account = await stack.admin.account({ balanceMinutes: 10 });
    const token = await stack.admin.token(account.id, ['recordings:write', 'recordings:read']);
    const boundary = 'mm-stalled';
    const audio = readFileSync(toneWav(3));
    const body = Buffer.concat([
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="audio"; filename="a.wav"\r\nContent-Type: audio/wav\r\n\r\n`,
      ),
      audio,
      Buffer.from(`\r\n--${boundary}--\r\n`),
    ]);
    const key = `stalled-${Date.now()}`;
    const conn = await open();
    conn.socket.write(
      head('POST', '/api/v1/recordings', token.value, {
        'Idempotency-Key': key,
        'Content-Type': `multipart/form-data; boundary=${boundary}`,
        'Content-Length': body.length,
      }),
    );
    conn.socket.write(body.subarray(0, Math.floor(body.length / 2)));
    const closedAt = await Promise.race([conn.closed, sleep(10_000).then(() => null)]);
    expect(closedAt).not.toBeNull();
    expect(conn.received()).toMatch(/^HTTP\/1\.1 400 /);
    expect(conn.received()).toContain('"code":"VALIDATION"');
    // Nothing was kept: the same key makes the meeting, once the first request's claim is let go
    // (503 UPLOAD_IN_PROGRESS with Retry-After until then, as the contract says).
    const send = () =>
      stack.api
        .post('/api/v1/recordings')
        .set('Authorization', `Bearer ${token.value}`)
        .set('Idempotency-Key', key)
        .attach('audio', audio, { filename: 'a.wav', contentType: 'audio/wav' });
    let res = await send();
    for (let tries = 0; res.status === 503 && tries < 10; tries++) {
      expect(res.body.error.code).toBe('UPLOAD_IN_PROGRESS');
      await sleep(500);
      res = await send();
    }
    expect(res.status).toBe(202);
    const list = await stack.api
      .get(`/api/v1/recordings/${res.body.recording.id}/status`)
      .set('Authorization', `Bearer ${token.value}`);
    expect(list.status).toBe(200);
  });
});
