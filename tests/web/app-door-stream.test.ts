import { readFileSync } from 'node:fs';
import type { BrowserContext, Page } from 'playwright-core';
import { startStack, type Stack, type TestToken } from '../support/stack';
import { launchBrowser, signedInContext, type TestBrowser } from '../support/browser';
import { toneWav } from '../support/media';

/**
 * Issue 29: the gateway's door to the app streams request bodies and answers (it no longer reads
 * a request whole, nor only its first 64 KB): a multi-MB piece of an upload passes in one request,
 * its CSRF token in the header; the same file sent again under the same Idempotency-Key is the
 * same meeting; the meeting's audio streams back whole.
 */
describe("the gateway's app door streams bodies (real browser context)", () => {
  let stack: Stack;
  let tb: TestBrowser;
  let token: TestToken;
  let owner: BrowserContext;
  let page: Page;
  let csrf: string;
  const bearer = () => ({ Authorization: `Bearer ${token.value}` });
  const created = async () => {
    const res = await stack.api.get('/api/v1/events?limit=500').set(bearer());
    return (res.body.events as { type: string; recordingId: string }[])
      .filter((e) => e.type === 'recording.created')
      .map((e) => e.recordingId);
  };
  /** One upload of `body` in a single piece through the door, then its send under `key`. */
  const uploadOnePiece = async (body: Buffer, key: string) => {
    const headers = { origin: stack.url, 'x-csrf-token': csrf };
    const made = await owner.request.post(`${stack.url}/app/uploads`, {
      headers,
      data: { audio: { size: body.length, name: 'long.wav', type: 'audio/wav' } },
    });
    expect(made.status()).toBe(201);
    const { id, pieceBytes } = await made.json();
    expect(pieceBytes).toBeGreaterThanOrEqual(body.length);
    const put = await owner.request.put(`${stack.url}/app/uploads/${id}/audio?offset=0`, {
      headers: { ...headers, 'content-type': 'application/octet-stream' },
      data: body,
    });
    expect(put.status()).toBe(200);
    expect((await put.json()).received).toBe(body.length);
    const sent = await owner.request.post(`${stack.url}/app/uploads/${id}/send`, {
      headers,
      data: { idempotencyKey: key, title: 'Long tone' },
    });
    return { id, sent };
  };

  beforeAll(async () => {
    stack = await startStack();
    tb = await launchBrowser();
    const account = await stack.admin.account({ displayName: 'Sima', balanceMinutes: 100 });
    token = await stack.admin.token(account.id, ['recordings:read']);
    owner = await signedInContext(tb.browser, stack, account.id, 'sima@example.test');
    page = await owner.newPage();
    await page.goto(`${stack.url}/app/upload`);
    csrf = await page.locator('input[name="_csrf"]').first().inputValue();
  }, 60_000);
  afterAll(async () => {
    await tb?.close();
    await stack?.stop();
  });

  it('passes a multi-MB piece in one request; a second send under the same key is the same meeting', async () => {
    // Two minutes of 16 kHz mono 16-bit: about 3.8 MB, sixty times what the door used to read.
    const body = readFileSync(toneWav(120));
    expect(body.length).toBeGreaterThan(3 * 1024 * 1024);
    const first = await uploadOnePiece(body, 'door-stream-key-0001');
    expect(first.sent.status()).toBe(202);
    const meeting = (await first.sent.json()).recording.id as string;
    const again = await uploadOnePiece(body, 'door-stream-key-0001');
    expect(again.sent.status()).toBe(202);
    expect((await again.sent.json()).recording.id).toBe(meeting);
    const until = Date.now() + 15_000;
    while (!(await created()).includes(meeting) && Date.now() < until) await new Promise((r) => setTimeout(r, 250));
    await new Promise((r) => setTimeout(r, 500));
    expect((await created()).filter((x) => x === meeting)).toHaveLength(1);

    // The answer streams back as well: megabytes of the meeting's audio, its length passed on.
    const audio = await owner.request.get(`${stack.url}/app/recordings/${meeting}/audio`, {
      headers: { range: 'bytes=0-' },
    });
    expect(audio.status()).toBe(206);
    const bytes = await audio.body();
    expect(bytes.length).toBeGreaterThan(3 * 1024 * 1024);
    expect(Number(audio.headers()['content-length'])).toBe(bytes.length);
  }, 120_000);

  it('still refuses a streamed body without the CSRF token, or from another origin, and reads nothing of it', async () => {
    const made = await owner.request.post(`${stack.url}/app/uploads`, {
      headers: { origin: stack.url, 'x-csrf-token': csrf },
      data: { audio: { size: 2 * 1024 * 1024, name: 'x.wav', type: 'audio/wav' } },
    });
    expect(made.status()).toBe(201);
    const { id } = await made.json();
    const piece = Buffer.alloc(2 * 1024 * 1024, 1);
    const noToken = await owner.request.put(`${stack.url}/app/uploads/${id}/audio?offset=0`, {
      headers: { origin: stack.url, 'content-type': 'application/octet-stream' },
      data: piece,
    });
    expect(noToken.status()).toBe(403);
    const elsewhere = await owner.request.put(`${stack.url}/app/uploads/${id}/audio?offset=0`, {
      headers: { origin: 'https://evil.example', 'x-csrf-token': csrf, 'content-type': 'application/octet-stream' },
      data: piece,
    });
    expect(elsewhere.status()).toBe(403);
    // Nothing was written: the first piece still starts at 0.
    const put = await owner.request.put(`${stack.url}/app/uploads/${id}/audio?offset=0`, {
      headers: { origin: stack.url, 'x-csrf-token': csrf, 'content-type': 'application/octet-stream' },
      data: piece.subarray(0, 1024),
    });
    expect(put.status()).toBe(200);
    expect((await put.json()).received).toBe(1024);
  }, 60_000);
});
