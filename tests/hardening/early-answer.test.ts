import { wavHeader } from '../support/media';
import { openRaw } from '../support/raw-http';
import { startStack, type Stack } from '../support/stack';

/**
 * A refused upload costs its sender the bytes, not us: a client that asks `Expect: 100-continue`
 * is refused before it sends anything when the refusal needs nothing of the body (the gateway
 * relays the 100 of the owning service, which asks only after its Idempotency-Key and limit
 * checks); one that sends anyway has its connection closed after the answer instead of the rest
 * of its body read off the wire. A refusal for money states the meeting's price, which only the
 * audio tells: that one is answered once the audio's header has been read (issue 25, item 1).
 */
let stack: Stack;
beforeAll(async () => {
  stack = await startStack({ DAILY_MEETING_LIMIT: '2' });
}, 60_000);
afterAll(() => stack.stop());

const SCOPES = ['recordings:write', 'recordings:read'];
const BOUNDARY = 'mm-early-answer';

function uploadHead(token: string, key: string, bodyBytes: number, extra: string[] = []): string {
  return [
    'POST /api/v1/recordings HTTP/1.1',
    `Host: 127.0.0.1`,
    `Authorization: Bearer ${token}`,
    `Idempotency-Key: ${key}`,
    `Content-Type: multipart/form-data; boundary=${BOUNDARY}`,
    `Content-Length: ${bodyBytes}`,
    ...extra,
    '',
    '',
  ].join('\r\n');
}

function multipart(audio: Buffer): Buffer {
  return Buffer.concat([
    Buffer.from(
      `--${BOUNDARY}\r\nContent-Disposition: form-data; name="audio"; filename="a.wav"\r\nContent-Type: audio/wav\r\n\r\n`,
    ),
    audio,
    Buffer.from(`\r\n--${BOUNDARY}--\r\n`),
  ]);
}

const open = () => openRaw(stack.url);
/** 16 kHz mono 16-bit PCM, as wavHeader writes it. */
const BYTES_PER_SECOND = 32_000;

/** Spends the stack's daily meeting limit (2) with short meetings. */
async function spendDailyLimit(token: string): Promise<void> {
  const audio = Buffer.concat([wavHeader(3 * BYTES_PER_SECOND), Buffer.alloc(3 * BYTES_PER_SECOND)]);
  for (let i = 0; i < 2; i++) {
    const res = await stack.api
      .post('/api/v1/recordings')
      .set('Authorization', `Bearer ${token}`)
      .attach('audio', audio, { filename: 'a.wav', contentType: 'audio/wav' });
    expect(res.status).toBe(202);
  }
}

async function until(check: () => boolean, ms: number): Promise<boolean> {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (check()) return true;
    await new Promise((r) => setTimeout(r, 20));
  }
  return check();
}

const finalStatus = (text: string) => text.match(/HTTP\/1\.1 ([2-5]\d\d)/)?.[1];

describe('Expect: 100-continue on uploads', () => {
  it('refuses an upload past the daily meeting limit before one byte of its body is sent', async () => {
    const account = await stack.admin.account({ balanceMinutes: 10 });
    const token = await stack.admin.token(account.id, SCOPES);
    await spendDailyLimit(token.value);
    const conn = await open();
    conn.socket.write(uploadHead(token.value, `expect-${Date.now()}`, 50 * 1024 * 1024, ['Expect: 100-continue']));
    expect(await until(() => finalStatus(conn.received()) !== undefined, 10_000)).toBe(true);
    const text = conn.received();
    expect(text).not.toContain('100 Continue');
    expect(finalStatus(text)).toBe('429');
    expect(text).toContain('DAILY_LIMIT_REACHED');
    // No 100 was sent, so no body will come: the connection is closed with the answer.
    await conn.closed;
  });

  it('asks a zero-balance upload for its body and answers 402 with the price its audio states', async () => {
    const account = await stack.admin.account({ balanceMinutes: 0 });
    const token = await stack.admin.token(account.id, SCOPES);
    const body = multipart(Buffer.concat([wavHeader(90 * BYTES_PER_SECOND), Buffer.alloc(90 * BYTES_PER_SECOND)]));
    const conn = await open();
    conn.socket.write(
      uploadHead(token.value, `expect-402-${Date.now()}`, body.length, ['Expect: 100-continue', 'Connection: close']),
    );
    expect(await until(() => conn.received().includes('100 Continue'), 10_000)).toBe(true);
    conn.socket.write(body);
    await conn.closed;
    const text = conn.received();
    expect(finalStatus(text)).toBe('402');
    expect(JSON.parse(text.slice(text.lastIndexOf('\r\n\r\n') + 4)).error.details.requiredMinutes).toBe(2);
  });

  it("sends the owning service's 100 Continue to a funded upload, then takes its body", async () => {
    const account = await stack.admin.account({ balanceMinutes: 10 });
    const token = await stack.admin.token(account.id, SCOPES);
    const body = multipart(Buffer.concat([wavHeader(64_000), Buffer.alloc(64_000)]));
    const conn = await open();
    conn.socket.write(
      uploadHead(token.value, `expect-ok-${Date.now()}`, body.length, ['Expect: 100-continue', 'Connection: close']),
    );
    expect(await until(() => conn.received().includes('100 Continue'), 10_000)).toBe(true);
    expect(finalStatus(conn.received())).toBeUndefined();
    conn.socket.write(body);
    await conn.closed;
    expect(finalStatus(conn.received())).toBe('202');
  });
});

describe('an upload refused while its body is still coming', () => {
  it('closes the connection after the answer instead of reading the rest of a 64 MB body', async () => {
    const account = await stack.admin.account({ balanceMinutes: 10 });
    const token = await stack.admin.token(account.id, SCOPES);
    await spendDailyLimit(token.value);
    const total = 64 * 1024 * 1024;
    const conn = await open();
    // A keep-alive client that sends its whole body without waiting (no Expect).
    conn.socket.write(uploadHead(token.value, `flood-${Date.now()}`, total));
    let written = 0;
    let gone = false;
    void conn.closed.then(() => (gone = true));
    const chunk = Buffer.alloc(256 * 1024, 1);
    while (written < total && !gone) {
      written += chunk.length;
      if (!conn.socket.write(chunk))
        await Promise.race([new Promise((r) => conn.socket.once('drain', r)), conn.closed]);
    }
    expect(await until(() => gone, 10_000)).toBe(true);
    const text = conn.received();
    expect(finalStatus(text)).toBe('429');
    expect(text.toLowerCase()).toContain('connection: close');
    // The gateway stopped reading: most of the body never left this client.
    expect(written).toBeLessThan(total / 2);
  });
});

describe('a refusal for money states the price, not the one-minute admission figure', () => {
  const ninetySeconds = () => Buffer.concat([wavHeader(90 * BYTES_PER_SECOND), Buffer.alloc(90 * BYTES_PER_SECOND)]);
  const submit = (token: string, audio: Buffer, fields: Record<string, string> = {}) => {
    let req = stack.api.post('/api/v1/recordings').set('Authorization', `Bearer ${token}`);
    for (const [k, v] of Object.entries(fields)) req = req.field(k, v);
    return req.attach('audio', audio, { filename: 'meeting.wav', contentType: 'audio/wav' });
  };

  it('answers 402 INSUFFICIENT_MINUTES with requiredMinutes 2 for a 90-second meeting', async () => {
    const account = await stack.admin.account({ balanceMinutes: 0 });
    const token = await stack.admin.token(account.id, [...SCOPES, 'account:read']);
    const res = await submit(token.value, ninetySeconds());
    expect(res.status).toBe(402);
    expect(res.body.error).toMatchObject({
      code: 'INSUFFICIENT_MINUTES',
      details: { requiredMinutes: 2, balanceMinutes: 0 },
    });
  });

  it("answers 429 TOKEN_DAILY_CAP with the meeting's price as requiredMinutes", async () => {
    const account = await stack.admin.account({ balanceMinutes: 10 });
    const token = await stack.admin.token(account.id, SCOPES, { dailyMinuteCap: 1 });
    const first = await submit(
      token.value,
      Buffer.concat([wavHeader(3 * BYTES_PER_SECOND), Buffer.alloc(3 * BYTES_PER_SECOND)]),
    );
    expect(first.status).toBe(202);
    const over = await submit(token.value, ninetySeconds());
    expect(over.status).toBe(429);
    expect(over.body.error).toMatchObject({
      code: 'TOKEN_DAILY_CAP',
      details: { capMinutes: 1, usedMinutes: 1, requiredMinutes: 2 },
    });
  });
});
