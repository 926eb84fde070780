import { sql } from 'kysely';
import { Client } from 'pg';
import { randomBytes } from 'node:crypto';
import { ensureDatabase, libpqUrl } from '../src/database';
import { migrateSchema, MIGRATION_LOCK_TIMEOUT } from '../src/migrate';

/**
 * A migration whose table is held by a long transaction gives up after MIGRATION_LOCK_TIMEOUT
 * instead of waiting: while it waits, every query of that table would queue behind it. Nothing of
 * the failed migration stays, and it runs once the table is free.
 */
const url = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/meeting_memory_test';
const schema = `lockprobe_${randomBytes(4).toString('hex')}`;
const first = {
  '0001_table': { up: async (db: never) => void (await sql`create table probe (id int primary key)`.execute(db)) },
};
const second = {
  ...first,
  '0002_column': { up: async (db: never) => void (await sql`alter table probe add column note text`.execute(db)) },
};

describe('a migration and a table held by a long transaction', () => {
  const holder = new Client({ connectionString: libpqUrl(url) });
  beforeAll(async () => {
    await ensureDatabase(url);
    await migrateSchema(url, schema, first);
    await holder.connect();
  });
  afterAll(async () => {
    await holder.query(`drop schema if exists ${schema} cascade`).catch(() => undefined);
    await holder.end();
  });

  it(`fails after ${MIGRATION_LOCK_TIMEOUT} of waiting for the lock, keeps nothing, and runs once the table is free`, async () => {
    await holder.query('begin');
    await holder.query(`select * from ${schema}.probe`);
    const started = Date.now();
    await expect(migrateSchema(url, schema, second)).rejects.toThrow(/0002_column.*lock timeout/);
    const waited = Date.now() - started;
    expect(waited).toBeGreaterThan(9_000);
    expect(waited).toBeLessThan(20_000);
    await holder.query('rollback');
    const columns = async () =>
      (
        await holder.query(
          `select column_name from information_schema.columns where table_schema = $1 and table_name = 'probe' order by 1`,
          [schema],
        )
      ).rows.map((r) => r.column_name);
    expect(await columns()).toEqual(['id']);
    expect(await migrateSchema(url, schema, second)).toEqual(['0002_column']);
    expect(await columns()).toEqual(['id', 'note']);
  }, 40_000);
});
