import { sql } from 'kysely';
import { ensureDatabase, openDatabase } from '../src/database';

/**
 * A Postgres restart cuts every connection, including one a use case holds between two queries.
 * Without a listener on that client its 'error' event would end the process (the chaos run found
 * recordings and pipeline dead after a restart); with one, only that work fails.
 */
describe('a connection cut while checked out', () => {
  const url = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/meeting_memory_test';
  const { db, pool } = openDatabase<unknown>({ url, schema: 'public', poolSize: 2 });
  beforeAll(() => ensureDatabase(url));
  afterAll(() => pool.end());

  it('fails only the work that held it, and the pool goes on', async () => {
    const uncaught: unknown[] = [];
    const onUncaught = (err: unknown) => uncaught.push(err);
    process.on('uncaughtException', onUncaught);
    try {
      let backend = 0;
      let cut!: () => void;
      const wasCut = new Promise<void>((resolve) => (cut = resolve));
      const held = db.transaction().execute(async (trx) => {
        backend = (await sql<{ pid: number }>`select pg_backend_pid() as pid`.execute(trx)).rows[0].pid;
        await wasCut;
        await sql`select 1`.execute(trx);
      });
      while (!backend) await new Promise((r) => setTimeout(r, 10));
      const other = (await sql<{ ok: boolean }>`select pg_terminate_backend(${backend}) as ok`.execute(db)).rows[0];
      expect(other.ok).toBe(true);
      // The server's goodbye reaches the idle-in-transaction client while no query runs.
      await new Promise((r) => setTimeout(r, 300));
      cut();
      await expect(held).rejects.toThrow();
      expect(uncaught).toEqual([]);
      const after = await sql<{ n: number }>`select 2 as n`.execute(db);
      expect(after.rows[0].n).toBe(2);
    } finally {
      process.off('uncaughtException', onUncaught);
    }
  });
});
