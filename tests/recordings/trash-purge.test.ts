import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { Client } from 'pg';
import { connectBus, type Bus } from '@mm/bus';
import { openDatabase } from '@mm/db';
import { openStore, type ObjectStore } from '@mm/store';
import { ADMIN_KEY, startStack, type Stack } from '../support/stack';
import { toneWav } from '../support/media';
import { loadConfig as gatewayConfig } from '../../services/gateway/src/config';
import type { Database } from '../../services/recordings/src/db/schema';
import { TrashPurger } from '../../services/recordings/src/services/trash-purger';

/**
 * The trash (issue 29): a meeting deleted more than TRASH_DAYS ago is purged for good (its rows
 * here, its questions in ask, its audio and working files in the store); one deleted 29 days ago
 * is still restorable. Two purgers run at once (two replicas) and purge each meeting once. The
 * service's own timer is set far off, so only the test's passes run.
 */
let stack: Stack;
let pg: Client;
beforeAll(async () => {
  stack = await startStack({ TRASH_DAYS: '30', TRASH_PURGE_SECONDS: '3600' });
  pg = new Client({ connectionString: stack.env.DATABASE_URL });
  await pg.connect();
}, 60_000);
afterAll(async () => {
  await pg?.end();
  await stack?.stop();
});

const admin = { Authorization: `Bearer ${ADMIN_KEY}` };
const bearer = (v: string) => ({ Authorization: `Bearer ${v}` });
const storeDir = () => stack.audioStore.replace(/^file:/, '');
const count = async (query: string, id: string) => Number((await pg.query(query, [id])).rows[0].n);

/** What is left of a meeting: its rows in every schema that keeps them, and its files in the store. */
async function leftOf(id: string) {
  return {
    recording: await count('select count(*) as n from recordings.recording where id = $1', id),
    transcript: await count('select count(*) as n from recordings.transcript where recording_id = $1', id),
    digest: await count('select count(*) as n from recordings.digest where recording_id = $1', id),
    asks: await count("select count(*) as n from ask.ask where target_kind = 'recording' and target_id = $1", id),
    audio: existsSync(path.join(storeDir(), 'audio', id)),
    work: existsSync(path.join(storeDir(), 'work', id)),
  };
}

/** A meeting sent and deleted, with a transcript, a digest, a question asked and a working file. */
async function deletedMeeting(accountId: string, token: string, daysAgo: number): Promise<string> {
  const sent = await stack.api
    .post('/api/v1/recordings')
    .set(bearer(token))
    .attach('audio', readFileSync(toneWav(2)), { filename: 'a.wav', contentType: 'audio/wav' });
  expect(sent.status).toBe(202);
  const id = sent.body.recording.id as string;
  const del = await stack.api.delete(`/admin/v1/recordings/${id}`).set(admin);
  expect(del.status).toBe(200);
  await pg.query(
    `insert into recordings.transcript (recording_id, language, speakers, segments, stats) values ($1, 'en', '[]', '[]', '{}')`,
    [id],
  );
  await pg.query(
    `insert into recordings.digest (recording_id, type, language, sections, markdown) values ($1, 'MEETING', 'en', '[]', '# x')`,
    [id],
  );
  await pg.query(
    `insert into ask.ask (id, account_id, target_kind, target_id, state, question, minutes) values ($1, $2, 'recording', $3, 'answered', 'Who?', 1)`,
    [`ask_${id}`, accountId, id],
  );
  await store.putJson(`work/${id}/transcript-job.json`, { segments: [] });
  await pg.query(`update recordings.recording set deleted_at = now() - make_interval(days => $2) where id = $1`, [
    id,
    daysAgo,
  ]);
  return id;
}

let store: ObjectStore;
let bus: Bus;

describe('the trash purge', () => {
  it('removes for good a meeting deleted 31 days ago (rows, questions, audio, files), keeps one deleted 29 days ago restorable; two replicas purge each once', async () => {
    store = await openStore(stack.audioStore);
    const account = await stack.admin.account({ balanceMinutes: 30 });
    const token = await stack.admin.token(account.id, ['recordings:write', 'recordings:read']);
    const old = await deletedMeeting(account.id, token.value, 31);
    const older = await deletedMeeting(account.id, token.value, 45);
    const recent = await deletedMeeting(account.id, token.value, 29);
    for (const id of [old, older, recent])
      expect(await leftOf(id)).toEqual({ recording: 1, transcript: 1, digest: 1, asks: 1, audio: true, work: true });

    // Two replicas' passes at once, each with its own database pool and bus connection.
    const cfg = gatewayConfig(stack.env);
    bus = await connectBus(cfg.natsUrl, 'operator', stack.busNamespace, { internalSecret: cfg.internalJwtSecret });
    const lines: Record<string, unknown>[] = [];
    const note = (o: Record<string, unknown>, msg: string) => void lines.push({ ...o, msg });
    // The purger's log lines, kept to read what it removed (a pino logger's info and warn).
    const logger = { info: note, warn: note };
    const replicas = [0, 1].map(() => {
      const { db } = openDatabase<Database>({ url: stack.env.DATABASE_URL!, schema: 'recordings', poolSize: 2 });
      return {
        db,
        purger: new TrashPurger({ db, nc: bus.nc, store, logger }, { days: 30, intervalSeconds: 3600, batch: 1 }),
      };
    });
    try {
      const purged = await Promise.all(replicas.map((r) => r.purger.runOnce()));
      expect(purged.reduce((a, b) => a + b, 0)).toBe(2);
      // Idempotent: another pass finds nothing due.
      expect(await replicas[0].purger.runOnce()).toBe(0);
    } finally {
      for (const r of replicas) await r.db.destroy();
      await bus.close();
    }
    for (const id of [old, older])
      expect(await leftOf(id)).toEqual({ recording: 0, transcript: 0, digest: 0, asks: 0, audio: false, work: false });
    expect(
      lines
        .filter((l) => l.msg === 'purged a meeting from the trash')
        .map((l) => l.recordingId)
        .sort(),
    ).toEqual([old, older].sort());
    // Gone for good: the API and the admin restore answer 404 like any unknown id.
    expect((await stack.api.get(`/api/v1/recordings/${old}/status`).set(bearer(token.value))).status).toBe(404);
    expect((await stack.api.post(`/admin/v1/recordings/${old}/restore`).set(admin)).status).toBe(404);

    // Deleted 29 days ago: all still there, and restorable.
    expect(await leftOf(recent)).toEqual({ recording: 1, transcript: 1, digest: 1, asks: 1, audio: true, work: true });
    expect((await stack.api.get(`/api/v1/recordings/${recent}/status`).set(bearer(token.value))).status).toBe(404);
    const restored = await stack.api.post(`/admin/v1/recordings/${recent}/restore`).set(admin);
    expect(restored.status).toBe(200);
    const status = await stack.api.get(`/api/v1/recordings/${recent}/status`).set(bearer(token.value));
    expect(status.status).toBe(200);
    expect(status.body.status).toBe('QUEUED');
  }, 60_000);
});
