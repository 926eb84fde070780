import { randomBytes } from 'node:crypto';
import { migrateSchema, openDatabase } from '@mm/db';
import type { Kysely } from 'kysely';
import { migrations } from '../migrations';
import type { Database } from '../src/db/schema';
import { EventRepository } from '../src/db/event.repository';
import { pruneEvents } from '../src/services/retention.service';

const DATABASE_URL = process.env.DATABASE_URL!;
const DAY = 24 * 3600 * 1000;
let db: Kysely<Database>;
let repo: EventRepository;

beforeAll(async () => {
  await migrateSchema(DATABASE_URL, 'events', migrations);
  db = openDatabase<Database>({ url: DATABASE_URL, schema: 'events', poolSize: 2 }).db;
  repo = new EventRepository(db);
});

afterAll(async () => {
  await db.destroy();
});

/** An account of its own with `old` events from 40+ days ago and `recent` ones from today. */
async function seed(old: number, recent: number): Promise<{ accountId: string; cutoff: Date }> {
  const accountId = `acc_ret_${randomBytes(6).toString('hex')}`;
  const now = Date.now();
  const at = [
    ...Array.from({ length: old }, (_, i) => new Date(now - (45 - i) * DAY)),
    ...Array.from({ length: recent }, (_, i) => new Date(now - i * 60_000)),
  ];
  for (const [i, occurredAt] of at.entries()) {
    await repo.insert({
      id: `${accountId}_${i}`,
      type: 'recording.created',
      recordingId: `rec_${i}`,
      accountId,
      tokenId: null,
      seriesId: null,
      occurredAt,
      data: JSON.stringify({ status: 'QUEUED' }),
    });
  }
  return { accountId, cutoff: new Date(now - 31 * DAY) };
}

const idsOf = async (accountId: string) =>
  await db.selectFrom('event').select(['id', 'occurredAt']).where('accountId', '=', accountId).orderBy('seq').execute();

describe('event retention', () => {
  it('deletes every expired event, oldest first, in batches, and keeps the rest in feed order', async () => {
    const { accountId, cutoff } = await seed(7, 5);
    const result = await pruneEvents(repo, cutoff, { batchSize: 3, pauseMs: 1 });
    expect(result.batches).toBeGreaterThanOrEqual(3);
    expect(result.deleted).toBeGreaterThanOrEqual(7);
    const left = await idsOf(accountId);
    expect(left.map((r) => r.id)).toEqual([7, 8, 9, 10, 11].map((i) => `${accountId}_${i}`));
    expect(left.every((r) => r.occurredAt >= cutoff)).toBe(true);
  });

  it('stops between batches when the service goes away, and the next run finishes the job', async () => {
    const { accountId, cutoff } = await seed(7, 2);
    let batches = 0;
    const first = await pruneEvents(repo, cutoff, { batchSize: 3, pauseMs: 1 }, () => batches++ >= 1);
    expect(first.batches).toBe(1);
    const afterFirst = await idsOf(accountId);
    // The oldest go first: what is left of the expired ones is the newest of them.
    expect(afterFirst.length).toBeGreaterThanOrEqual(6);
    expect(afterFirst.length).toBeLessThan(9);
    expect(afterFirst[afterFirst.length - 1].id).toBe(`${accountId}_8`);
    await pruneEvents(repo, cutoff, { batchSize: 3, pauseMs: 1 });
    expect((await idsOf(accountId)).map((r) => r.id)).toEqual([`${accountId}_7`, `${accountId}_8`]);
  });
});
