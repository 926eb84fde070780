import { Client } from 'pg';
import { migrateSchema, openDatabase } from '@mm/db';
import { migrations } from '../../services/events/migrations';
import { EventRepository } from '../../services/events/src/db/event.repository';
import type { Database } from '../../services/events/src/db/schema';

/**
 * The feed's `latest` position is read under the insert lock: it waits for an insert in flight
 * (an exclusive holder) so a cursor placed there misses nothing, while readers of `latest` hold
 * it shared and do not wait for one another.
 */
const url = process.env.DATABASE_URL!;
const INSERT_LOCK = 7_291_001;
let repo: EventRepository;
let close: () => Promise<void>;
let holder: Client;

beforeAll(async () => {
  await migrateSchema(url, 'events', migrations);
  const { db } = openDatabase<Database>({ url, schema: 'events', poolSize: 4 });
  repo = new EventRepository(db);
  close = () => db.destroy();
  holder = new Client({ connectionString: url });
  await holder.connect();
});
afterAll(async () => {
  await holder.end();
  await close();
});

const settled = (p: Promise<unknown>) =>
  Promise.race([p.then(() => true), new Promise((r) => setTimeout(() => r(false), 2000))]);

it('waits for an insert holding the lock, and readers holding it do not block each other', async () => {
  await holder.query('begin');
  await holder.query('select pg_advisory_xact_lock($1)', [INSERT_LOCK]);
  const waiting = repo.currentSeq();
  expect(await settled(waiting)).toBe(false);
  await holder.query('commit');
  expect(typeof (await waiting)).toBe('bigint');

  await holder.query('begin');
  await holder.query('select pg_advisory_xact_lock_shared($1)', [INSERT_LOCK]);
  const reading = repo.currentSeq();
  expect(await settled(reading)).toBe(true);
  await holder.query('commit');
});

it('reads the sequence after the lock is granted: an insert in flight that numbers an event is in the answer', async () => {
  await holder.query('begin');
  await holder.query('select pg_advisory_xact_lock($1)', [INSERT_LOCK]);
  const waiting = repo.currentSeq();
  expect(await settled(waiting)).toBe(false);
  // The insert numbers its event while `latest` waits: read before the lock, it would be missed.
  const { rows } = await holder.query<{ seq: string }>('select nextval($1::regclass) as seq', ['events.event_seq_seq']);
  await holder.query('commit');
  expect(await waiting).toBe(BigInt(rows[0].seq));
});

it('pageWithCeiling answers the page and the highest seq numbered in one statement', async () => {
  const { rows } = await holder.query<{ seq: string }>('select nextval($1::regclass) as seq', ['events.event_seq_seq']);
  const empty = await repo.pageWithCeiling({
    accountId: 'acc_nobody_latest_lock',
    afterSeq: 0n,
    limit: 5,
    notBefore: new Date(0),
  });
  expect(empty.rows).toEqual([]);
  expect(empty.ceiling).toBeGreaterThanOrEqual(BigInt(rows[0].seq));
});
