import { readFileSync } from 'node:fs';
import { startStack, type Stack } from '../support/stack';
import {
  corruptWav,
  pdfBytes,
  toneM4a,
  toneWav,
  truncatedM4a,
  truncatedFastStartM4a,
  videoWithAudio,
  videoWithoutAudio,
} from '../support/media';

let stack: Stack;
beforeAll(async () => {
  stack = await startStack({ MAX_UPLOAD_MB: '1', MAX_RECORDING_MINUTES: '1', DAILY_MEETING_LIMIT: '3' });
});
afterAll(async () => {
  await stack.stop();
});

const SUBMIT = ['recordings:write', 'recordings:read', 'account:read'];

async function tokenFor(account: Record<string, unknown> = {}, scopes = SUBMIT, extra: Record<string, unknown> = {}) {
  const acc = await stack.admin.account(account);
  return { account: acc, token: await stack.admin.token(acc.id, scopes, extra) };
}

function submit(
  token: string,
  file: string | Buffer,
  opts: {
    filename?: string;
    contentType?: string;
    fields?: Record<string, string>;
    key?: string;
    attachment?: { body: Buffer; filename: string };
  } = {},
) {
  let req = stack.api.post('/api/v1/recordings').set('Authorization', `Bearer ${token}`);
  if (opts.key) req = req.set('Idempotency-Key', opts.key);
  for (const [k, v] of Object.entries(opts.fields ?? {})) req = req.field(k, v);
  const body = typeof file === 'string' ? readFileSync(file) : file;
  req = req.attach('audio', body, {
    filename: opts.filename ?? 'meeting.bin',
    contentType: opts.contentType ?? 'application/octet-stream',
  });
  if (opts.attachment)
    req = req.attach('attachment', opts.attachment.body, {
      filename: opts.attachment.filename,
      contentType: 'application/octet-stream',
    });
  return req;
}

describe('POST /recordings errors, through the gateway', () => {
  it('accepts a WAV sniffed from its bytes and answers 202 with the Submit result', async () => {
    const { token } = await tokenFor();
    const res = await submit(token.value, toneWav(3));
    expect(res.status).toBe(202);
    expect(res.body).toMatchObject({ schemaVersion: 1, recording: { status: 'QUEUED', minutes: 1, bundleUrl: null } });
    expect(res.body.recording.statusUrl).toMatch(new RegExp(`/api/v1/recordings/${res.body.recording.id}/status$`));
    const status = await stack.api
      .get(res.body.recording.statusUrl.replace(/^.*\/api\/v1/, '/api/v1'))
      .set('Authorization', `Bearer ${token.value}`);
    expect(status.status).toBe(200);
    expect(status.body).toMatchObject({
      schemaVersion: 1,
      id: res.body.recording.id,
      error: null,
      naming: null,
      bundleUrl: null,
    });
  });

  it('answers 400 VALIDATION "Unsupported audio type" when neither the part nor the bytes tell', async () => {
    const { token } = await tokenFor();
    const res = await submit(token.value, Buffer.from('hello, this is not audio at all'));
    expect(res.status).toBe(400);
    expect(res.body.error).toEqual({ code: 'VALIDATION', message: 'Unsupported audio type' });
  });

  it('answers 400 VALIDATION without an audio part, for an unknown part, and for bad recordedAt', async () => {
    const { token } = await tokenFor();
    const none = await stack.api
      .post('/api/v1/recordings')
      .set('Authorization', `Bearer ${token.value}`)
      .field('title', 'x');
    expect(none.body.error.code).toBe('VALIDATION');
    for (const fields of [
      { colour: 'red' },
      { recordedAt: 'yesterday' },
      { recordedAt: '1999-12-31T23:00:00Z' },
      { recordedAt: new Date(Date.now() + 3600_000).toISOString() },
      { naming: 'sometimes' },
      { kind: 'PARTY' },
    ] as Record<string, string>[]) {
      const res = await submit(token.value, toneWav(3), { fields });
      expect([res.status, res.body.error.code]).toEqual([400, 'VALIDATION']);
    }
  });

  it('answers 400 VALIDATION for a recordedAt that names no real day or time, and keeps an offset one', async () => {
    const { token } = await tokenFor();
    for (const recordedAt of [
      '2026-02-30T00:00:00Z',
      '2026-04-31T10:00:00+03:30',
      '2025-02-29T00:00:00Z',
      '2026-01-01T24:00:00Z',
      '2026-01-01T10:60:00Z',
      '2026-13-01T00:00:00Z',
    ]) {
      const res = await submit(token.value, toneWav(3), { fields: { recordedAt } });
      expect([recordedAt, res.status, res.body.error?.code]).toEqual([recordedAt, 400, 'VALIDATION']);
      expect(res.body.error.message).toMatch(/recordedAt/);
    }
    const ok = await submit(token.value, toneWav(3), { fields: { recordedAt: '2024-02-29T23:30:00+03:30' } });
    expect(ok.status).toBe(202);
    expect(ok.body.recording.recordedAt).toBe('2024-02-29T20:00:00.000Z');
  });

  it('says which part is wrong when audio comes as text or twice', async () => {
    const { token } = await tokenFor();
    const asText = await stack.api
      .post('/api/v1/recordings')
      .set('Authorization', `Bearer ${token.value}`)
      .field('audio', 'RIFF....WAVE');
    expect([asText.status, asText.body.error]).toEqual([
      400,
      { code: 'VALIDATION', message: 'part audio must be a file (a part with a filename)' },
    ]);
    const twice = await submit(token.value, toneWav(3)).attach('audio', readFileSync(toneWav(3)), {
      filename: 'b.wav',
      contentType: 'audio/wav',
    });
    expect([twice.status, twice.body.error]).toEqual([
      400,
      { code: 'VALIDATION', message: 'part audio sent more than once' },
    ]);
    // A text part sent twice (multer reads it as a list): 400 naming it, never a 500.
    for (const [name, value] of [
      ['title', 'Weekly'],
      ['seriesId', 'ser_x'],
      ['recordedAt', '2026-01-01T10:00:00Z'],
    ]) {
      const repeated = await submit(token.value, toneWav(3)).field(name, value).field(name, value);
      expect([name, repeated.status, repeated.body.error]).toEqual([
        name,
        400,
        { code: 'VALIDATION', message: `part ${name} sent more than once` },
      ]);
    }
  });

  it('counts a title in characters: 200 emoji are a title, 201 are not', async () => {
    const { token } = await tokenFor();
    const long = await submit(token.value, toneWav(3), { fields: { title: '😀'.repeat(201) } });
    expect([long.status, long.body.error?.message]).toEqual([400, 'title must be 1 to 200 characters']);
    const ok = await submit(token.value, toneWav(3), { fields: { title: '😀'.repeat(200) } });
    expect(ok.status).toBe(202);
  });

  it('answers 400 VALIDATION for an Idempotency-Key outside 8 to 64 characters', async () => {
    const { token } = await tokenFor();
    for (const key of ['short', 'x'.repeat(65)])
      expect((await submit(token.value, toneWav(3), { key })).body.error.code).toBe('VALIDATION');
  });

  it('answers 400 INVALID_AUDIO for bytes the decoder refuses', async () => {
    const { token } = await tokenFor();
    const res = await submit(token.value, corruptWav(), { contentType: 'audio/wav' });
    expect([res.status, res.body.error.code]).toEqual([400, 'INVALID_AUDIO']);
  });

  it('answers 400 AUDIO_INCOMPLETE for an MP4-family file cut short, its index at the end or at the start', async () => {
    const { token } = await tokenFor();
    const res = await submit(token.value, truncatedM4a(10), { contentType: 'audio/mp4' });
    expect([res.status, res.body.error.code]).toEqual([400, 'AUDIO_INCOMPLETE']);
    // Fast start: ffprobe reads the header, the decode fails on the last packet with no word of an end.
    const fast = await submit(token.value, truncatedFastStartM4a(10), { contentType: 'audio/mp4' });
    expect([fast.status, fast.body.error.code]).toEqual([400, 'AUDIO_INCOMPLETE']);
  });

  it('answers 400 AUDIO_INCOMPLETE for a WAV file cut short (its header states more audio than it holds), charging nothing', async () => {
    const { token } = await tokenFor({ balanceMinutes: 30 });
    const full = readFileSync(toneWav(3));
    const res = await submit(token.value, full.subarray(0, 2000), { contentType: 'audio/wav' });
    expect([res.status, res.body.error]).toEqual([
      400,
      { code: 'AUDIO_INCOMPLETE', message: 'The audio file was cut short.' },
    ]);
    const me = await stack.api.get('/api/v1/whoami').set('Authorization', `Bearer ${token.value}`);
    expect([me.body.wallet.balanceMinutes, me.body.token.usedMinutes24h]).toEqual([30, 0]);
    // A few bytes short (under the tolerance) is still taken.
    const nearly = await submit(token.value, full.subarray(0, full.length - 100), { contentType: 'audio/wav' });
    expect(nearly.status).toBe(202);
  });

  it('answers 413 UPLOAD_TOO_LARGE and 413 RECORDING_TOO_LONG past the limits', async () => {
    const { token } = await tokenFor();
    const big = await submit(token.value, Buffer.concat([readFileSync(toneWav(3)), Buffer.alloc(1_200_000)]), {
      contentType: 'audio/wav',
    });
    expect([big.status, big.body.error.code]).toEqual([413, 'UPLOAD_TOO_LARGE']);
    const long = await submit(token.value, toneM4a(75), { contentType: 'audio/mp4' });
    expect([long.status, long.body.error.code]).toEqual([413, 'RECORDING_TOO_LONG']);
  });

  it('takes the audio out of a video, and answers the VIDEO_* errors', async () => {
    const { account, token } = await tokenFor();
    const ok = await submit(token.value, videoWithAudio(3), { contentType: 'video/mp4' });
    expect(ok.status).toBe(202);
    const silent = await submit(token.value, videoWithoutAudio(3), { contentType: 'video/mp4' });
    expect([silent.status, silent.body.error.code]).toEqual([400, 'VIDEO_NO_AUDIO']);
    const unreadable = await submit(
      token.value,
      Buffer.concat([Buffer.from([0, 0, 0, 0x18]), Buffer.from('ftypmp42'), Buffer.alloc(500, 3)]),
      { contentType: 'video/mp4' },
    );
    expect([unreadable.status, unreadable.body.error.code]).toEqual([400, 'VIDEO_UNREADABLE']);
    await stack.admin.patchAccount(account.id, { features: { videoUpload: false } });
    const off = await submit(token.value, videoWithAudio(3), { contentType: 'video/mp4' });
    expect([off.status, off.body.error.code]).toEqual([409, 'VIDEO_UPLOAD_DISABLED']);
  });

  it('answers ATTACHMENT_TYPE and ATTACHMENT_TOO_LARGE, and prices a good attachment', async () => {
    const { token } = await tokenFor();
    const wrong = await submit(token.value, toneWav(3), {
      attachment: { body: Buffer.from('plain text'), filename: 'notes.txt' },
    });
    expect([wrong.status, wrong.body.error.code]).toEqual([400, 'ATTACHMENT_TYPE']);
    const big = await stack.api
      .post('/api/v1/recordings')
      .set('Authorization', `Bearer ${token.value}`)
      .attach('audio', readFileSync(toneWav(3)), { filename: 'a.wav', contentType: 'audio/wav' })
      .attach('attachment', Buffer.concat([pdfBytes(), Buffer.alloc(10 * 1024 * 1024)]), {
        filename: 'big.pdf',
        contentType: 'application/pdf',
      });
    expect(big.body.error?.code === 'ATTACHMENT_TOO_LARGE' || big.body.error?.code === 'UPLOAD_TOO_LARGE').toBe(true);
    expect(big.status).toBe(413);
    const good = await submit(token.value, toneWav(3), { attachment: { body: pdfBytes(), filename: 'agenda.pdf' } });
    expect(good.status).toBe(202);
    expect(good.body.recording.minutes).toBe(2);
  });

  it('answers 402 INSUFFICIENT_MINUTES with requiredMinutes, and balanceMinutes only with account:read', async () => {
    const { token } = await tokenFor({ balanceMinutes: 0 });
    const res = await submit(token.value, toneWav(3));
    expect(res.status).toBe(402);
    expect(res.body.error).toMatchObject({
      code: 'INSUFFICIENT_MINUTES',
      details: { requiredMinutes: 1, balanceMinutes: 0 },
    });
    const acc = await stack.admin.account({ balanceMinutes: 0 });
    const writeOnly = await stack.admin.token(acc.id, ['recordings:write']);
    const res2 = await submit(writeOnly.value, toneWav(3));
    expect(res2.body.error.details).toEqual({ requiredMinutes: 1 });
  });

  it('lets a trial account overdraw by one meeting within the allowance', async () => {
    const { token } = await tokenFor({ balanceMinutes: 0, trial: true });
    expect((await submit(token.value, toneWav(3))).status).toBe(202);
    expect((await submit(token.value, toneWav(3))).body.error.code).toBe('INSUFFICIENT_MINUTES');
  });

  it('answers 429 TOKEN_DAILY_CAP with its details, Retry-After only when waiting can help', async () => {
    const { token } = await tokenFor({}, SUBMIT, { dailyMinuteCap: 1 });
    expect((await submit(token.value, toneWav(3))).status).toBe(202);
    const over = await submit(token.value, toneWav(3));
    expect(over.status).toBe(429);
    expect(over.body.error).toMatchObject({
      code: 'TOKEN_DAILY_CAP',
      details: { capMinutes: 1, usedMinutes: 1, requiredMinutes: 1 },
    });
    expect(over.headers['retry-after']).toMatch(/^\d+$/);
    // 1 minute of audio plus an attachment: 2 minutes, more than the cap by itself.
    const second = await stack.admin.token((await stack.admin.account()).id, SUBMIT, { dailyMinuteCap: 1 });
    const alone = await submit(second.value, toneWav(3), { attachment: { body: pdfBytes(), filename: 'agenda.pdf' } });
    expect(alone.body.error.code).toBe('TOKEN_DAILY_CAP');
    expect(alone.headers['retry-after']).toBeUndefined();
  });

  it('answers 429 DAILY_LIMIT_REACHED past the service limit on meetings, without Retry-After (waiting will not pass it)', async () => {
    const { token } = await tokenFor();
    for (let i = 0; i < 3; i++) expect((await submit(token.value, toneWav(3))).status).toBe(202);
    const res = await submit(token.value, toneWav(3));
    expect([res.status, res.body.error.code]).toEqual([429, 'DAILY_LIMIT_REACHED']);
    expect(res.headers['retry-after']).toBeUndefined();
  });
});
