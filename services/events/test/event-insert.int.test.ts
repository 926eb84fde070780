import { randomBytes } from 'node:crypto';
import { sql, type Kysely } from 'kysely';
import { migrateSchema, openDatabase } from '@mm/db';
import { migrations } from '../migrations';
import type { Database } from '../src/db/schema';
import { EventRepository } from '../src/db/event.repository';

/**
 * Storing an event runs prepared statements (parsed and planned once per connection): the insert
 * lock, the meeting's last stamp, the event and the stamp, and the lookup of a waiting event. One
 * connection, so every statement runs on the one whose statements are read.
 */
const DATABASE_URL = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/meeting_memory_test';

let db: Kysely<Database>;
let repo: EventRepository;
beforeAll(async () => {
  await migrateSchema(DATABASE_URL, 'events', migrations);
  db = openDatabase<Database>({ url: DATABASE_URL, schema: 'events', poolSize: 1 }).db;
  repo = new EventRepository(db);
});
afterAll(async () => {
  await db.destroy();
});

/** How many times the prepared statements whose text has `like` ran on the pool's one connection. */
async function runs(like: string): Promise<{ statements: number; runs: number }> {
  const { rows } = await sql<{ statements: string; runs: string | null }>`
    select count(*) as statements, sum(generic_plans + custom_plans) as runs
    from pg_prepared_statements where statement like ${like}`.execute(db);
  return { statements: Number(rows[0].statements), runs: Number(rows[0].runs) };
}

describe('storing a meeting event', () => {
  it('answers as before (stored, a redelivery, one waiting for its predecessor) on prepared statements', async () => {
    const run = randomBytes(4).toString('hex');
    const meetings = 6;
    const event = (m: number, seq: number) => ({
      id: `evt_ins_${run}_${m}_${seq}`,
      type: 'recording.created',
      recordingId: `rec_ins_${run}_${m}`,
      accountId: `acc_ins_${run}`,
      tokenId: null,
      seriesId: null,
      occurredAt: new Date(),
      data: JSON.stringify({ status: 'QUEUED' }),
      meetingSeq: seq,
    });
    for (let m = 0; m < meetings; m++) {
      // The third comes first: it waits for the second, then is stored once both before it are.
      expect(await repo.insert(event(m, 1))).toEqual({ stored: true, waiting: false, gap: false });
      expect(await repo.insert(event(m, 3))).toEqual({ stored: false, waiting: true, gap: true });
      expect(await repo.insert(event(m, 2))).toEqual({ stored: true, waiting: false, gap: false });
      expect(await repo.insert(event(m, 3))).toEqual({ stored: true, waiting: false, gap: false });
      // A redelivery stores nothing.
      expect(await repo.insert(event(m, 2))).toEqual({ stored: false, waiting: false, gap: false });
    }
    const stored = await db
      .selectFrom('event')
      .select(['id', 'meetingSeq'])
      .where('accountId', '=', `acc_ins_${run}`)
      .orderBy('seq')
      .execute();
    expect(stored).toHaveLength(meetings * 3);
    const order = await db
      .selectFrom('meetingOrder')
      .select('lastSeq')
      .where('recordingId', 'like', `rec_ins_${run}_%`)
      .execute();
    expect(order.map((o) => o.lastSeq)).toEqual(Array(meetings).fill(3));

    const inserts = meetings * 5;
    expect({
      lock: await runs('%pg_advisory_xact_lock($1)%'),
      lastSeq: (await runs('%select "last_seq" from "meeting_order" where "recording_id" = $1%')).statements,
      event: await runs('%insert into "event"%'),
      order: (await runs('%insert into "meeting_order"%')).statements,
      waiting: (await runs('%select "id" from "event" where "id" = $1%')).statements,
    }).toEqual({
      lock: { statements: 1, runs: inserts },
      lastSeq: 1,
      event: { statements: 1, runs: meetings * 4 },
      order: 1,
      waiting: 1,
    });
  });
});
