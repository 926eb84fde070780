import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { startStack, type Stack } from '../support/stack';
import { toneTs, toneWav } from '../support/media';
import { multipartHead, rawSubmit } from '../support/money';

/**
 * Uploads that would make ffmpeg read something else (issue 11, behaviour 5): a playlist naming a
 * file on the server or a URL, or a concat list, is refused as unreadable audio; nothing is
 * fetched, and no other file is measured as the meeting.
 */
let stack: Stack;
let web: Server;
let fetched = 0;
beforeAll(async () => {
  web = createServer((req, res) => {
    fetched++;
    res.writeHead(200, { 'content-type': 'audio/wav' }).end(readFileSync(toneWav(3)));
  });
  await new Promise<void>((resolve) => web.listen(0, '127.0.0.1', resolve));
  stack = await startStack();
}, 60_000);
afterAll(async () => {
  await stack.stop();
  await new Promise((resolve) => web.close(resolve));
});

const bearer = (v: string) => ({ Authorization: `Bearer ${v}` });

describe('ffmpeg reads only the upload, in a container we accept', () => {
  it.each([
    [
      'an HLS playlist naming a file on the server',
      'audio/mpegurl',
      'p.m3u8',
      () => `#EXTM3U\n#EXT-X-TARGETDURATION:10\n#EXTINF:3,\n${toneTs(3)}\n#EXT-X-ENDLIST\n`,
    ],
    [
      'an HLS playlist naming a URL',
      'audio/mpegurl',
      'p.m3u8',
      () =>
        `#EXTM3U\n#EXT-X-TARGETDURATION:10\n#EXTINF:10,\nhttp://127.0.0.1:${(web.address() as AddressInfo).port}/a.wav\n#EXT-X-ENDLIST\n`,
    ],
    [
      'a concat list naming a local file',
      'audio/wav',
      'list.wav',
      () => `ffconcat version 1.0\nfile '${toneWav(3)}'\n`,
    ],
  ])('refuses %s with 400 INVALID_AUDIO and fetches nothing', async (_name, type, filename, body) => {
    const account = await stack.admin.account({ balanceMinutes: 20 });
    const token = await stack.admin.token(account.id, ['recordings:write']);
    const res = await stack.api
      .post('/api/v1/recordings')
      .set(bearer(token.value))
      .attach('audio', Buffer.from(body()), { filename, contentType: type });
    expect([res.status, res.body.error.code]).toEqual([400, 'INVALID_AUDIO']);
    expect(fetched).toBe(0);
  });
});

describe('the attachment limit', () => {
  it('answers 413 ATTACHMENT_TOO_LARGE while an oversized attachment is still streaming', async () => {
    const account = await stack.admin.account({ balanceMinutes: 20 });
    const token = await stack.admin.token(account.id, ['recordings:write']);
    const boundary = 'mmattach';
    const audioPart = multipartHead(
      boundary,
      `\r\n--${boundary}\r\nContent-Disposition: form-data; name="attachment"; filename="a.pdf"\r\nContent-Type: application/pdf\r\n\r\n`,
    );
    // Declares a 100 MB body, sends 12 MB of attachment and then nothing more.
    const { req, answer } = rawSubmit(stack, {
      Authorization: `Bearer ${token.value}`,
      'Content-Type': `multipart/form-data; boundary=${boundary}`,
      'Content-Length': 100 * 1024 * 1024,
    });
    req.write(audioPart);
    const mb = Buffer.alloc(1024 * 1024, 0x25);
    for (let i = 0; i < 12; i++) req.write(mb);
    const early = await Promise.race([answer, new Promise<null>((r) => setTimeout(() => r(null), 15_000))]);
    req.destroy();
    expect(early && [early.status, early.body.error.code]).toEqual([413, 'ATTACHMENT_TOO_LARGE']);
  }, 30_000);
});

describe('a stream whose header states no length (a browser MediaRecorder WebM)', () => {
  it('is measured by decoding it and priced by its real length', async () => {
    // 65 s of Opus in a WebM written to a pipe: the header has no duration, as MediaRecorder's.
    const webm = execFileSync(
      'ffmpeg',
      [
        '-nostdin',
        '-v',
        'error',
        '-f',
        'lavfi',
        '-i',
        'sine=frequency=300:duration=65',
        '-c:a',
        'libopus',
        '-f',
        'webm',
        '-',
      ],
      { maxBuffer: 16 * 1024 * 1024 },
    );
    const account = await stack.admin.account({ balanceMinutes: 20 });
    const token = await stack.admin.token(account.id, ['recordings:write']);
    const res = await stack.api
      .post('/api/v1/recordings')
      .set(bearer(token.value))
      .attach('audio', webm, { filename: 'rec.webm', contentType: 'audio/webm' });
    expect(res.status).toBe(202);
    expect(res.body.recording.minutes).toBe(2);
  }, 60_000);
});
