import { readFileSync, writeFileSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createAjv } from '@mm/http';
import { ROUTES } from '@mm/contract';
import { Client } from 'pg';
import { ADMIN_KEY, startStack, type Stack } from '../support/stack';
import { speakMeeting } from '../support/speak-meeting';
import { toneWav, wavHeader } from '../support/media';
import { waitForEvent, waitForStatus } from '../support/wait';

let stack: Stack;
beforeAll(async () => {
  stack = await startStack(
    { NAMING_AUTO_WAIT_SECONDS: '1', NAMING_FORCE_ON_DEADLINE_HOURS: '0', PIPELINE_AUTO_RETRIES: '0' },
    { pipeline: true },
  );
}, 60_000);
afterAll(async () => {
  await stack.stop();
});

const ajv = createAjv();
const statusSchema = ajv.compile(ROUTES.find((r) => r.operationId === 'getRecordingStatus')!.responses[0].schema);
const bearer = (v: string) => ({ Authorization: `Bearer ${v}` });
const admin = { Authorization: `Bearer ${ADMIN_KEY}` };
const ALL = ['recordings:read', 'recordings:write', 'account:write', 'account:read'];

async function twoVoices() {
  return speakMeeting([
    ['slt', 'Good morning. We decided to ship the release on Friday.'],
    ['rms', 'Great. I will write the release notes tomorrow.'],
  ]);
}

async function submit(token: string, file: string, fields: Record<string, string> = {}) {
  let req = stack.api.post('/api/v1/recordings').set(bearer(token));
  for (const [k, v] of Object.entries(fields)) req = req.field(k, v);
  const res = await req.attach('audio', readFileSync(file), { filename: 'm.wav', contentType: 'audio/wav' });
  expect(res.status).toBe(202);
  return res.body.recording.id as string;
}

describe('states and transitions through the gateway', () => {
  it('holds a FORCE_ON meeting at NAMING with a null deadline until skipped; NOT_NAMING afterwards', async () => {
    const account = await stack.admin.account();
    const token = await stack.admin.token(account.id, ALL);
    expect(
      (
        await stack.api
          .patch('/api/v1/account/settings')
          .set(bearer(token.value))
          .send({ speakerNamingMode: 'FORCE_ON' })
      ).status,
    ).toBe(200);
    const id = await submit(token.value, (await twoVoices()).path);
    const naming = await waitForStatus(
      stack,
      token.value,
      id,
      (s) => s === 'NAMING' || s === 'READY' || s === 'FAILED',
      180_000,
    );
    expect(naming.status).toBe('NAMING');
    expect(statusSchema(naming)).toBe(true);
    expect(naming.naming).toEqual({ url: expect.stringMatching(/^http.*\/recordings\/.+/), deadline: null });
    const early = await stack.api.get(`/api/v1/recordings/${id}/bundle`).set(bearer(token.value));
    expect(early.status).toBe(409);
    expect(early.body).toEqual({
      error: { code: 'NOT_READY', message: expect.any(String) },
      details: { status: 'NAMING' },
    });
    const skipped = await stack.api
      .post(`/api/v1/recordings/${id}/naming`)
      .set(bearer(token.value))
      .send({ action: 'skip' });
    expect(skipped.status).toBe(200);
    expect(statusSchema(skipped.body)).toBe(true);
    expect(['GENERATING', 'READY']).toContain(skipped.body.status);
    await waitForStatus(stack, token.value, id, (s) => s === 'READY');
    const again = await stack.api
      .post(`/api/v1/recordings/${id}/naming`)
      .set(bearer(token.value))
      .send({ action: 'skip' });
    expect([again.status, again.body.error.code]).toEqual([409, 'NOT_NAMING']);
    const retry = await stack.api.post(`/api/v1/recordings/${id}/retry`).set(bearer(token.value));
    expect([retry.status, retry.body.error.code]).toEqual([409, 'NOT_FAILED']);
    const bad = await stack.api
      .post(`/api/v1/recordings/${id}/naming`)
      .set(bearer(token.value))
      .send({ action: 'rename' });
    expect(bad.body.error.code).toBe('VALIDATION');
  }, 240_000);

  it('fails damaged audio with AUDIO_CORRUPT; retry answers the status unchanged', async () => {
    const account = await stack.admin.account();
    const token = await stack.admin.token(account.id, ALL);
    // A valid WAV header over random full-scale samples: readable, but not audio anyone recorded.
    const file = path.join(tmpdir(), `noise-${Date.now()}.wav`);
    writeFileSync(file, Buffer.concat([wavHeader(96_000), randomBytes(96_000)]));
    const id = await submit(token.value, file, { naming: 'skip' });
    const failed = await waitForStatus(stack, token.value, id, (s) => s === 'FAILED' || s === 'READY');
    expect(failed.error).toEqual({ code: 'AUDIO_CORRUPT', retryable: false });
    const retry = await stack.api.post(`/api/v1/recordings/${id}/retry`).set(bearer(token.value));
    expect(retry.status).toBe(200);
    expect(retry.body).toMatchObject({ status: 'FAILED', error: { code: 'AUDIO_CORRUPT', retryable: false } });
  }, 120_000);

  it('lets a write-only token reach only the meetings it sent, and only their status', async () => {
    const account = await stack.admin.account();
    const mine = await stack.admin.token(account.id, ['recordings:write']);
    const other = await stack.admin.token(account.id, ['recordings:write', 'recordings:read']);
    const id = await submit(mine.value, toneWav(3));
    const theirs = await submit(other.value, toneWav(3));
    expect((await stack.api.get(`/api/v1/recordings/${id}/status`).set(bearer(mine.value))).status).toBe(200);
    expect((await stack.api.get(`/api/v1/recordings/${theirs}/status`).set(bearer(mine.value))).status).toBe(404);
    expect((await stack.api.get(`/api/v1/recordings/${id}/bundle`).set(bearer(mine.value))).body.error.code).toBe(
      'TOKEN_SCOPE',
    );
    expect((await stack.api.get(`/api/v1/recordings/${id}/status`).set(bearer(other.value))).status).toBe(200);
  });

  it("answers 404 for another account's meeting exactly like a missing one", async () => {
    const a = await stack.admin.account();
    const b = await stack.admin.account();
    const ta = await stack.admin.token(a.id, ALL);
    const tb = await stack.admin.token(b.id, ALL);
    const id = await submit(ta.value, toneWav(3));
    for (const p of [
      `/api/v1/recordings/${id}/status`,
      `/api/v1/recordings/${id}/bundle`,
      '/api/v1/recordings/rec_missing/status',
    ]) {
      const res = await stack.api.get(p).set(bearer(tb.value));
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ error: { code: 'NOT_FOUND', message: expect.any(String) } });
    }
    const skip = await stack.api.post(`/api/v1/recordings/${id}/naming`).set(bearer(tb.value)).send({ action: 'skip' });
    expect(skip.status).toBe(404);
  });

  it('deletes and restores through the admin API: deleted answers 404, restored comes back', async () => {
    const account = await stack.admin.account({ balanceMinutes: 10 });
    const token = await stack.admin.token(account.id, ALL);
    const id = await submit(token.value, toneWav(3), { naming: 'skip' });
    expect((await stack.api.delete(`/admin/v1/recordings/${id}`).set(admin)).status).toBe(200);
    expect((await stack.api.get(`/api/v1/recordings/${id}/status`).set(bearer(token.value))).status).toBe(404);
    expect((await stack.api.post(`/admin/v1/recordings/${id}/restore`).set(admin)).status).toBe(200);
    expect((await stack.api.get(`/api/v1/recordings/${id}/status`).set(bearer(token.value))).status).toBe(200);
  });
});

describe('a key replayed after its meeting was deleted', () => {
  it('names the same meeting, makes no second one, and links to no bundle', async () => {
    const account = await stack.admin.account({ balanceMinutes: 10 });
    const token = await stack.admin.token(account.id, ALL);
    const audio = readFileSync((await twoVoices()).path);
    const send = () =>
      stack.api
        .post('/api/v1/recordings')
        .set(bearer(token.value))
        .set('Idempotency-Key', 'deleted-replay-1')
        .field('naming', 'skip')
        .attach('audio', audio, { filename: 'm.wav', contentType: 'audio/wav' });
    const first = await send();
    expect(first.status).toBe(202);
    const id = first.body.recording.id as string;
    expect((await waitForStatus(stack, token.value, id, (s) => s === 'READY' || s === 'FAILED', 120_000)).status).toBe(
      'READY',
    );
    expect((await send()).body.recording.bundleUrl).toMatch(new RegExp(`/recordings/${id}/bundle$`));
    expect((await stack.api.delete(`/admin/v1/recordings/${id}`).set(admin)).status).toBe(200);
    const replay = await send();
    expect(replay.status).toBe(202);
    expect(replay.body.recording).toMatchObject({ id, bundleUrl: null });
    expect((await stack.api.get(`/api/v1/recordings/${id}/status`).set(bearer(token.value))).status).toBe(404);
  }, 180_000);
});

describe('money around delete and restore while the pipeline runs', () => {
  it('charges, at restore, a meeting deleted while queued that the pipeline finished meanwhile; once', async () => {
    const account = await stack.admin.account({ balanceMinutes: 10 });
    const token = await stack.admin.token(account.id, ALL);
    const id = await submit(token.value, (await twoVoices()).path, { naming: 'skip' });
    expect((await stack.api.delete(`/admin/v1/recordings/${id}`).set(admin)).status).toBe(200);
    const db = new Client({ connectionString: stack.env.DATABASE_URL });
    await db.connect();
    try {
      const statusOf = async () =>
        (await db.query('select status from recordings.recording where id = $1', [id])).rows[0].status as string;
      const until = Date.now() + 120_000;
      while (!['READY', 'FAILED'].includes(await statusOf()) && Date.now() < until)
        await new Promise((r) => setTimeout(r, 250));
      expect(await statusOf()).toBe('READY');
      const whoami = async () =>
        (await stack.api.get('/api/v1/whoami').set(bearer(token.value))).body.wallet.balanceMinutes as number;
      expect(await whoami()).toBe(10); // deleted before its transcript: nothing charged
      expect((await stack.api.post(`/admin/v1/recordings/${id}/restore`).set(admin)).status).toBe(200);
      const minutes =
        (await stack.api.get(`/api/v1/recordings/${id}/status`).set(bearer(token.value))).body.minutes ?? null;
      const kinds = (
        await db.query("select kind from account.ledger_entry where account_id = $1 and kind <> 'credit' order by id", [
          account.id,
        ])
      ).rows.map((r) => r.kind);
      expect(kinds).toEqual(['hold', 'release', 'hold', 'capture']);
      expect(await whoami()).toBeLessThan(10);
      if (minutes !== null) expect(await whoami()).toBe(10 - minutes);
      // Its first digest was made in the trash: the feed announces it after the restore, once.
      await waitForEvent(stack, token.value, id, 'recording.ready');
      const feed = async () =>
        (
          (await stack.api.get('/api/v1/events?limit=500').set(bearer(token.value))).body.events as {
            recordingId: string;
            type: string;
            data: { change?: string };
          }[]
        )
          .filter((e) => e.recordingId === id)
          .map((e) => (e.data.change ? `${e.type} ${e.data.change}` : e.type));
      expect(await feed()).toEqual([
        'recording.created',
        'recording.deleted',
        'recording.updated restored',
        'recording.ready',
      ]);
      // Restoring again charges nothing more, and announces no second ready.
      await stack.api.delete(`/admin/v1/recordings/${id}`).set(admin);
      await stack.api.post(`/admin/v1/recordings/${id}/restore`).set(admin);
      expect(
        (
          await db.query(
            "select count(*)::int as n from account.ledger_entry where account_id = $1 and kind = 'capture'",
            [account.id],
          )
        ).rows[0].n,
      ).toBe(1);
      await waitForEvent(stack, token.value, id, 'recording.updated', 60_000, 2);
      expect((await feed()).slice(4)).toEqual(['recording.deleted', 'recording.updated restored']);
    } finally {
      await db.end();
    }
  }, 180_000);
});

describe('GET /recordings/ready', () => {
  it('pages newest first by createdAt with the exact cursor format, and refuses other cursors', async () => {
    const account = await stack.admin.account();
    const token = await stack.admin.token(account.id, ALL);
    const ids: string[] = [];
    for (let i = 0; i < 3; i++)
      ids.push(await submit(token.value, (await twoVoices()).path, { naming: 'skip', title: `Meeting ${i}` }));
    for (const id of ids) await waitForStatus(stack, token.value, id, (s) => s === 'READY', 240_000);
    const first = await stack.api.get('/api/v1/recordings/ready?limit=2').set(bearer(token.value));
    expect(first.body.items.map((i: { id: string }) => i.id)).toEqual([ids[2], ids[1]]);
    expect(first.body.nextCursor).toMatch(/^\d{1,15}\.[A-Za-z0-9_-]{1,48}$/);
    const second = await stack.api
      .get(`/api/v1/recordings/ready?limit=2&cursor=${encodeURIComponent(first.body.nextCursor)}`)
      .set(bearer(token.value));
    expect(second.body.items.map((i: { id: string }) => i.id)).toEqual([ids[0]]);
    expect(second.body.nextCursor).toBeNull();
    for (const cursor of ['abc', '12345', '1.', 'x'.repeat(65), '1234567890123456.abc']) {
      const res = await stack.api
        .get(`/api/v1/recordings/ready?cursor=${encodeURIComponent(cursor)}`)
        .set(bearer(token.value));
      expect([res.status, res.body.error.code]).toEqual([400, 'VALIDATION']);
    }
    for (const q of ['limit=0', 'limit=101', 'sort=asc'])
      expect((await stack.api.get(`/api/v1/recordings/ready?${q}`).set(bearer(token.value))).status).toBe(400);
    expect((await stack.api.get('/api/v1/recordings/ready?seriesId=ser_nope').set(bearer(token.value))).status).toBe(
      404,
    );
  }, 300_000);
});
