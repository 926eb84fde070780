import { randomBytes } from 'node:crypto';
import { countingStatements, migrateSchema, openDatabase } from '@mm/db';
import { sql, type Kysely } from 'kysely';
import { migrations } from '../migrations';
import { RecordingRepository } from '../src/db/recordings.repository';
import type { Database } from '../src/db/schema';
import { SearchRepository } from '../src/db/search.repository';

/**
 * The search's named read keeps a generic plan: Postgres plans it once per connection instead of
 * on every run. It can only because its text says `status = 'READY'`, which the READY-only indexes
 * need; with READY sent as a parameter, Postgres planned it again on every run (0.3–1 ms of its
 * CPU each time).
 */
const DATABASE_URL = process.env.DATABASE_URL!;
let db: Kysely<Database>;
let accountId: string;
let seriesId: string;

beforeAll(async () => {
  await migrateSchema(DATABASE_URL, 'recordings', migrations);
  // One connection: the runs below and the look at its prepared statements share it.
  db = openDatabase<Database>({ url: DATABASE_URL, schema: 'recordings', poolSize: 1 }).db;
  accountId = `acc_gp_${randomBytes(6).toString('hex')}`;
  seriesId = `ser_gp_${randomBytes(6).toString('hex')}`;
  // Enough meetings (most not READY) that reading the table without the READY-only indexes costs more.
  await sql`
    insert into recording (id, account_id, source, status, kind, output_language, naming, keyterms, series_id,
      recorded_at, created_at, duration_ms, minutes, attachment_minutes, audio_key, hold_ref, charged, ready_once,
      updated_at, search_text, search_turns)
    select ${accountId} || '_' || i, ${accountId}, 'api', case when i % 10 = 0 then 'READY' else 'FAILED' end,
      'MEETING', 'MATCH', 'skip', '{}', ${seriesId}, now() - i * interval '1 hour', now() - i * interval '1 hour',
      60000, 1, 0, 'audio/' || i, 'hold_' || i, true, true, now(), 'budget talk ' || i, 1
    from generate_series(1, 2000) as i`.execute(db);
  await sql`analyze recording`.execute(db);
});

afterAll(async () => {
  await db.destroy();
});

/** How `on`'s connection planned its prepared statements whose text is `like`. */
async function plans(like: string, on: Kysely<Database> = db): Promise<{ generic: number; custom: number }> {
  const r = await sql<{ generic: string; custom: string }>`
    select sum(generic_plans) as generic, sum(custom_plans) as custom
    from pg_prepared_statements where statement like ${like}`.execute(on);
  return { generic: Number(r.rows[0].generic ?? 0), custom: Number(r.rows[0].custom ?? 0) };
}

describe("the search's named read", () => {
  it('is planned once per connection, then run by its generic plan', async () => {
    const recordings = new RecordingRepository(db);
    const search = new SearchRepository();
    for (let i = 0; i < 10; i++) {
      expect((await search.matching(db, { accountId }, ['budget'], null, 5)).length).toBe(5);
      expect((await recordings.listReady(db, { accountId }, null, 5)).length).toBe(5);
      expect((await recordings.seriesStats(db, [seriesId])).get(seriesId)?.meetingCount).toBe(200);
    }
    // Postgres tries five custom plans first; every run after them used the generic one.
    const p = await plans('%search_text like all%');
    expect(p).toEqual({ generic: 5, custom: 5 });
    // seriesStats too, its list of series behind a subquery (keyArray): in plain sight each run's
    // plan counted the series it was given and the generic plan guessed ten, so every run was
    // planned afresh (~0.05-0.13 ms; docs/decisions.md, session 30). The generic plan, a bitmap scan
    // of the READY series index, is the one Postgres picks for a large series as well.
    expect(await plans('%series_id = any(%')).toEqual({ generic: 5, custom: 5 });
    // The ready list's first page, a batched read by keys (unnestKeys: each key column's array
    // behind a subquery), keeps its generic plan too: with the arrays in plain sight each run's plan
    // counted one key against the generic plan's guess of ten, and every run was planned afresh.
    expect(await plans('%unnest((select $1::text[])::text[], (select $2::text[])::text[]) as k(owner, lim)%')).toEqual({
      generic: 5,
      custom: 5,
    });
  });
});

describe("a turn's searches, batched", () => {
  // A schema of its own, filled as a service's is: many accounts of three meetings each (the
  // cheaper each search, the more the count of them weighs in a plan's cost).
  const schema = `recordings_gp_${randomBytes(4).toString('hex')}`;
  let own: ReturnType<typeof openDatabase<Database>>;
  beforeAll(async () => {
    await migrateSchema(DATABASE_URL, schema, migrations);
    own = openDatabase<Database>({ url: DATABASE_URL, schema, poolSize: 1 });
    await sql`
      insert into recording (id, account_id, source, status, kind, output_language, naming, keyterms,
        recorded_at, created_at, duration_ms, minutes, attachment_minutes, audio_key, hold_ref, charged, ready_once,
        updated_at, search_text, search_turns)
      select 'rec_' || a || '_' || i, 'acc_' || a, 'api', 'READY', 'MEETING', 'MATCH', 'skip', '{}',
        now() - i * interval '1 hour', now() - i * interval '1 hour', 60000, 1, 0, 'audio/' || a || '/' || i,
        'hold_' || a || '_' || i, true, true, now(), 'budget talk ' || i, 1
      from generate_series(1, 300) as a, generate_series(1, 3) as i`.execute(own.db);
    await sql`analyze recording`.execute(own.db);
  });
  afterAll(async () => {
    await sql`drop schema ${sql.id(schema)} cascade`.execute(own.db);
    await own.db.destroy();
  });

  it('keep the generic plan of their shared statement, however many searches a turn has', async () => {
    const search = new SearchRepository();
    // Turns of two to five searches, as a light load brings them, then turns of twelve. The plan
    // Postgres makes for each run's values would count them and the generic plan guesses ten: with
    // the array in plain sight every run of small turns was planned afresh (~1 ms of Postgres each,
    // docs/decisions.md, session 30); behind a subquery (keyArray) neither plan can count them.
    const turns = [2, 3, 4, 2, 5, 3, 2, 4, 12, 12];
    for (const n of turns) {
      const found = await Promise.all(
        Array.from({ length: n }, (_, j) =>
          search.matching(own.db, { accountId: `acc_${1 + j}` }, ['budget'], null, 2),
        ),
      );
      expect(found.map((rows) => rows.length)).toEqual(Array.from({ length: n }, () => 2));
    }
    expect(await plans('%with ordinality as k(q, i)%', own.db)).toEqual({ generic: turns.length - 5, custom: 5 });
  });
});

describe('the ready lists of one turn', () => {
  it('share one statement per shape, each page as it would be alone', async () => {
    const recordings = new RecordingRepository(db);
    const first = await recordings.listReady(db, { accountId }, null, 3);
    const position = { createdAt: first[2]!.createdAt, id: first[2]!.id };
    // The six pages, read through `on`: first pages of two sizes, a series' page, an account with
    // none, a page after a position, a page past the end.
    const pagesOn = (on: Kysely<Database>) => [
      () => recordings.listReady(on, { accountId }, null, 3),
      () => recordings.listReady(on, { accountId }, null, 5),
      () => recordings.listReady(on, { seriesId }, null, 2),
      () => recordings.listReady(on, { accountId: 'acc_nobody' }, null, 5),
      () => recordings.listReady(on, { accountId }, position, 4),
      () => recordings.listReady(on, { accountId }, { createdAt: new Date(0), id: 'rec_0' }, 4),
    ];
    const alone = [];
    for (const ask of pagesOn(db)) alone.push((await ask()).map((r) => r.id));
    expect(alone[0]).toEqual(first.map((r) => r.id));
    expect(alone[1]!.slice(0, 3)).toEqual(alone[0]);
    expect(alone[3]).toEqual([]);
    // The page after the third row: rows four to seven of the account's list.
    expect(alone[4]).toEqual((await recordings.listReady(db, { accountId }, null, 7)).slice(3).map((r) => r.id));
    expect(alone[5]).toEqual([]);
    const { db: counted, sent } = countingStatements(db);
    const together = await Promise.all(pagesOn(counted).map((ask) => ask()));
    expect(together.map((rows) => rows.map((r) => r.id))).toEqual(alone);
    // Three shapes: an account's first pages, a series' first page, an account's pages after a position.
    expect(sent.count).toBe(3);
    // A row carries the listed columns only, not the key it was read for.
    expect(Object.keys(together[0]![0]!).sort()).toEqual(Object.keys(first[0]!).sort());
    expect(Object.keys(first[0]!)).not.toContain('forOwner');
  });
});
