import { sql, type Kysely } from 'kysely';
import { ensureDatabase, openDatabase } from '../src/database';
import { keyArray, prepared, preparedByKey, preparedByKeys, preparedShapes } from '../src/prepared';
import { countingStatements } from '../src/statement-counter';

interface Db {
  preparedProbe: { id: string; accountId: string; n: number; createdAt: Date };
}

/** A schema of its own holding the probe table with four rows (three of acc_a, one of acc_b). */
async function probeTable(schema: string): Promise<ReturnType<typeof openDatabase<Db>>> {
  const url = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/meeting_memory_test';
  await ensureDatabase(url);
  const setup = openDatabase<unknown>({ url, schema: 'public', poolSize: 1 });
  await sql`drop schema if exists ${sql.id(schema)} cascade`.execute(setup.db);
  await sql`create schema ${sql.id(schema)}`.execute(setup.db);
  await sql`create table ${sql.id(schema, 'prepared_probe')} (id text primary key, account_id text not null, n int not null, created_at timestamptz not null)`.execute(
    setup.db,
  );
  await setup.pool.end();
  const h = openDatabase<Db>({ url, schema, poolSize: 2 });
  await h.db
    .insertInto('preparedProbe')
    .values([
      { id: 'a1', accountId: 'acc_a', n: 1, createdAt: new Date('2026-01-01T00:00:00Z') },
      { id: 'a2', accountId: 'acc_a', n: 2, createdAt: new Date('2026-01-02T00:00:00Z') },
      { id: 'a3', accountId: 'acc_a', n: 3, createdAt: new Date('2026-01-03T00:00:00Z') },
      { id: 'b1', accountId: 'acc_b', n: 4, createdAt: new Date('2026-01-04T00:00:00Z') },
    ])
    .execute();
  return h;
}

/**
 * A prepared query is built and compiled once and run with each call's arguments: every argument
 * lands in its own place (never the first call's), on the handle and in a transaction, its rows
 * renamed as the handle renames them; Postgres gets it as a named statement.
 */
describe('prepared queries', () => {
  let h: ReturnType<typeof openDatabase<Db>>;
  beforeAll(async () => {
    h = await probeTable('prepared_probe');
  });
  afterAll(() => h.pool.end());

  const page = prepared((db: Kysely<Db>, accountId: string, before: Date, limit: number) =>
    db
      .selectFrom('preparedProbe')
      .select(['id', 'accountId', 'n'])
      .where('accountId', '=', accountId)
      .where('createdAt', '<', before)
      .orderBy('createdAt', 'desc')
      .limit(limit),
  );
  const byIds = prepared((db: Kysely<Db>, ids: string[]) =>
    db.selectFrom('preparedProbe').select('id').where(sql<boolean>`id = any(${ids})`).orderBy('id'),
  );

  it('runs each call with its own arguments, in their places, rows renamed', async () => {
    const far = new Date('2030-01-01T00:00:00Z');
    expect(await page.all(h.db, 'acc_a', far, 2)).toEqual([
      { id: 'a3', accountId: 'acc_a', n: 3 },
      { id: 'a2', accountId: 'acc_a', n: 2 },
    ]);
    expect(await page.all(h.db, 'acc_b', far, 5)).toEqual([{ id: 'b1', accountId: 'acc_b', n: 4 }]);
    expect(await page.all(h.db, 'acc_a', new Date('2026-01-02T12:00:00Z'), 5)).toEqual([
      { id: 'a2', accountId: 'acc_a', n: 2 },
      { id: 'a1', accountId: 'acc_a', n: 1 },
    ]);
    expect(await page.first(h.db, 'acc_c', far, 5)).toBeUndefined();
    expect((await byIds.all(h.db, ['b1', 'a1', 'zz'])).map((r) => r.id)).toEqual(['a1', 'b1']);
    expect(await byIds.all(h.db, [])).toEqual([]);
  });

  it('runs in a transaction, as a named statement of the connection', async () => {
    await h.db
      .transaction()
      .execute(async (trx) => {
        await trx.updateTable('preparedProbe').set({ n: 10 }).where('id', '=', 'a1').execute();
        // The transaction sees its own write: the query ran on its connection.
        expect(await page.all(trx, 'acc_a', new Date('2026-01-01T12:00:00Z'), 1)).toEqual([
          { id: 'a1', accountId: 'acc_a', n: 10 },
        ]);
        const statements = await sql<{ name: string }>`select name from pg_prepared_statements`.execute(trx);
        expect(statements.rows.some((s) => /^mm_[0-9a-f]{24}$/.test(s.name))).toBe(true);
        throw new Error('roll back');
      })
      .catch((err: Error) => expect(err.message).toBe('roll back'));
    expect((await page.first(h.db, 'acc_a', new Date('2026-01-01T12:00:00Z'), 1))?.n).toBe(1);
  });

  it('refuses a query that does not use each argument as a value', async () => {
    const branching = prepared((db: Kysely<Db>, id: string, _unused: number) =>
      db.selectFrom('preparedProbe').select('id').where('id', '=', id),
    );
    await expect(branching.all(h.db, 'a1', 1)).rejects.toThrow(/each of its 2 arguments/);
  });
});

/**
 * A read prepared per shape is compiled once for each set of options and run with each call's
 * values in their places: two shapes never mix, and a value the shape uses must be given.
 */
describe('reads prepared per shape', () => {
  let h: ReturnType<typeof openDatabase<Db>>;
  beforeAll(async () => {
    h = await probeTable('prepared_shapes_probe');
  });
  afterAll(() => h.pool.end());

  let builds = 0;
  const page = preparedShapes(
    (
      db: Kysely<Db>,
      shape: { min: boolean; before: boolean },
      v: { accountId: string; min?: number; before?: Date; limit: number },
    ) => {
      builds++;
      let q = db.selectFrom('preparedProbe').select(['id', 'n']).where('accountId', '=', v.accountId);
      if (shape.min) q = q.where('n', '>=', v.min!);
      if (shape.before) q = q.where('createdAt', '<', v.before!);
      return q.orderBy('createdAt', 'desc').limit(v.limit);
    },
  );

  it('builds each shape once and runs every call with its own values', async () => {
    const ids = (rows: { id: string }[]) => rows.map((r) => r.id);
    const none = { min: false, before: false };
    expect(ids(await page.all(h.db, none, { accountId: 'acc_a', limit: 2 }))).toEqual(['a3', 'a2']);
    expect(ids(await page.all(h.db, none, { accountId: 'acc_b', limit: 5 }))).toEqual(['b1']);
    const min = { min: true, before: false };
    expect(ids(await page.all(h.db, min, { accountId: 'acc_a', min: 2, limit: 5 }))).toEqual(['a3', 'a2']);
    expect(ids(await page.all(h.db, min, { accountId: 'acc_a', min: 3, limit: 5 }))).toEqual(['a3']);
    const both = { min: true, before: true };
    const before = new Date('2026-01-03T00:00:00Z');
    expect(ids(await page.all(h.db, both, { accountId: 'acc_a', min: 1, before, limit: 5 }))).toEqual(['a2', 'a1']);
    // The first shape again, after the others: its own text, not the last one built.
    expect(ids(await page.all(h.db, none, { accountId: 'acc_a', limit: 1 }))).toEqual(['a3']);
    expect(builds).toBe(3);
  });

  it('refuses a call that leaves out a value its shape uses', async () => {
    await expect(page.all(h.db, { min: true, before: false }, { accountId: 'acc_a', limit: 5 })).rejects.toThrow(
      /value min/,
    );
  });
});

describe('reads by key, one statement per turn', () => {
  let h: ReturnType<typeof openDatabase<Db>>;
  beforeAll(async () => {
    h = await probeTable('prepared_by_key_probe');
  });
  afterAll(() => h.pool.end());

  const byId = preparedByKey(
    (db: Kysely<Db>, ids: string[]) =>
      db.selectFrom('preparedProbe').select(['id', 'n']).where(sql<boolean>`id = any(${ids})`),
    (row) => row.id,
  );
  const counted = () => countingStatements(h.db);

  it('sends the keys of one turn in one statement and answers each read with its own row', async () => {
    const { db, sent } = counted();
    const rows = await Promise.all(['a1', 'b1', 'a1', 'zz'].map((id) => byId.first(db, id)));
    expect(rows).toEqual([{ id: 'a1', n: 1 }, { id: 'b1', n: 4 }, { id: 'a1', n: 1 }, undefined]);
    expect(sent.count).toBe(1);
  });

  it('reads again after the turn: a later read sees a later write', async () => {
    const { db, sent } = counted();
    expect(await byId.first(db, 'a2')).toEqual({ id: 'a2', n: 2 });
    await h.db.updateTable('preparedProbe').set({ n: 20 }).where('id', '=', 'a2').execute();
    expect(await byId.first(db, 'a2')).toEqual({ id: 'a2', n: 20 });
    expect(sent.count).toBe(2);
  });

  it('keeps its generic plan with its keys behind a subquery (keyArray), where an array in sight is planned each run', async () => {
    const kept = preparedByKey(
      (db: Kysely<Db>, ids: string[]) =>
        db
          .selectFrom('preparedProbe')
          .select(['id', 'n'])
          .where(sql<boolean>`id = any(${keyArray(ids)})`),
      (row) => row.id,
    );
    // In a transaction: one connection, whose statements the test then reads.
    await h.db.transaction().execute(async (trx) => {
      for (let i = 0; i < 8; i++) {
        expect(await kept.first(trx, 'b1')).toEqual({ id: 'b1', n: 4 });
        expect(await byId.first(trx, 'b1')).toEqual({ id: 'b1', n: 4 });
      }
      const plans = await sql<{ statement: string; generic: string; custom: string }>`
        select statement, generic_plans as generic, custom_plans as custom from pg_prepared_statements
        where statement like '%prepared_probe%' and statement like '%= any(%' order by statement`.execute(trx);
      const of = (inSight: boolean) => plans.rows.find((r) => r.statement.includes('any((select') !== inSight);
      // Five custom plans first, then the generic one; in sight, a custom plan every run.
      expect(of(false)).toMatchObject({ generic: '3', custom: '5' });
      // (The reads of the tests before may have run it on this connection too.)
      expect(of(true)?.generic).toBe('0');
      expect(Number(of(true)?.custom)).toBeGreaterThanOrEqual(8);
    });
  });

  it('runs alone, at once, on a transaction', async () => {
    await h.db.transaction().execute(async (trx) => {
      await trx.updateTable('preparedProbe').set({ n: 30 }).where('id', '=', 'a3').execute();
      // The transaction's own write: the read ran on its connection, not batched on the pool.
      expect(await byId.first(trx, 'a3')).toEqual({ id: 'a3', n: 30 });
    });
  });
});

describe('reads by a key of two columns, one statement per turn', () => {
  let h: ReturnType<typeof openDatabase<Db>>;
  beforeAll(async () => {
    h = await probeTable('prepared_by_keys_probe');
  });
  afterAll(() => h.pool.end());

  /** A row by id if the account holds it: the account is in the statement, not checked after. */
  const owned = preparedByKeys(
    (db: Kysely<Db>, ids: string[], accountIds: string[]) =>
      db
        .selectFrom(
          sql<{ id: string; accountId: string }>`unnest(${ids}::text[], ${accountIds}::text[])`.as<'k'>(
            sql`k(id, account_id)`,
          ),
        )
        .innerJoin('preparedProbe as p', (j) => j.onRef('p.id', '=', 'k.id').onRef('p.accountId', '=', 'k.accountId'))
        .select(['p.id', 'p.accountId', 'p.n']),
    (row) => [row.id, row.accountId],
  );
  /** Every row of an account, in order. */
  const ofAccount = preparedByKeys(
    (db: Kysely<Db>, accountIds: string[]) =>
      db
        .selectFrom('preparedProbe')
        .select(['id', 'accountId'])
        .where(sql<boolean>`account_id = any(${accountIds})`)
        .orderBy('id'),
    (row) => [row.accountId],
  );
  /** The same read with a read of one key by its values: each row says which statement read it. */
  const viaAlone = preparedByKeys(
    (db: Kysely<Db>, accountIds: string[]) =>
      db
        .selectFrom('preparedProbe')
        .select(['id', 'accountId', sql<string>`'batched'`.as('via')])
        .where(sql<boolean>`account_id = any(${accountIds})`)
        .orderBy('id'),
    (row): [string] => [row.accountId],
    (db: Kysely<Db>, accountId: string) =>
      db
        .selectFrom('preparedProbe')
        .select(['id', 'accountId', sql<string>`'alone'`.as('via')])
        .where('accountId', '=', accountId)
        .orderBy('id'),
  );
  const counted = () => countingStatements(h.db);

  it("answers each (id, account) pair of a turn from one statement, and never another account's row", async () => {
    const { db, sent } = counted();
    const rows = await Promise.all([
      owned.first(db, 'a1', 'acc_a'),
      owned.first(db, 'a1', 'acc_b'),
      owned.first(db, 'b1', 'acc_b'),
      owned.first(db, 'b1', 'acc_a'),
    ]);
    expect(rows).toEqual([
      { id: 'a1', accountId: 'acc_a', n: 1 },
      undefined,
      { id: 'b1', accountId: 'acc_b', n: 4 },
      undefined,
    ]);
    expect(sent.count).toBe(1);
  });

  it('answers every row of each key with all, in the statement order', async () => {
    const { db, sent } = counted();
    const [a, b, none] = await Promise.all([
      ofAccount.all(db, 'acc_a'),
      ofAccount.all(db, 'acc_b'),
      ofAccount.all(db, 'acc_none'),
    ]);
    expect(a.map((r) => r.id)).toEqual(['a1', 'a2', 'a3']);
    expect(b.map((r) => r.id)).toEqual(['b1']);
    expect(none).toEqual([]);
    expect(sent.count).toBe(1);
  });

  it('reads a turn of one key, and a key on a transaction, with the read alone; a turn of several batched', async () => {
    const { db, sent } = counted();
    const one = await viaAlone.all(db, 'acc_a');
    expect(one).toEqual([
      { id: 'a1', accountId: 'acc_a', via: 'alone' },
      { id: 'a2', accountId: 'acc_a', via: 'alone' },
      { id: 'a3', accountId: 'acc_a', via: 'alone' },
    ]);
    const [a, b] = await Promise.all([viaAlone.all(db, 'acc_a'), viaAlone.all(db, 'acc_b')]);
    expect(a.map((r) => [r.id, r.via])).toEqual([
      ['a1', 'batched'],
      ['a2', 'batched'],
      ['a3', 'batched'],
    ]);
    expect(b.map((r) => [r.id, r.via])).toEqual([['b1', 'batched']]);
    expect(sent.count).toBe(2);
    await h.db.transaction().execute(async (trx) => {
      expect((await viaAlone.all(trx, 'acc_b')).map((r) => r.via)).toEqual(['alone']);
    });
  });

  it('refuses a key of the wrong width, and reads alone on a transaction', async () => {
    await expect((owned.first as (...a: unknown[]) => Promise<unknown>)(h.db, 'a1')).rejects.toThrow(/2 columns/);
    await h.db.transaction().execute(async (trx) => {
      await trx.updateTable('preparedProbe').set({ n: 10 }).where('id', '=', 'a1').execute();
      expect(await owned.first(trx, 'a1', 'acc_a')).toEqual({ id: 'a1', accountId: 'acc_a', n: 10 });
    });
  });
});
