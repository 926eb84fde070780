import { randomBytes } from 'node:crypto';
import { Client } from 'pg';
import { analyzeWithoutAutovacuum, ensureDatabase } from '../src/database';

/**
 * On a server without autovacuum (this machine's), `pnpm start` gathers the planner's statistics
 * once at start; on one with it, it leaves them to autovacuum.
 */
describe('analyzeWithoutAutovacuum', () => {
  const url = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/meeting_memory_test';
  const schema = `stats_${randomBytes(4).toString('hex')}`;
  const client = new Client({ connectionString: url });

  beforeAll(async () => {
    await ensureDatabase(url);
    await client.connect();
    await client.query(`create schema ${schema}`);
    await client.query(`create table ${schema}.t as select i, i % 7 as k from generate_series(1, 5000) as i`);
  });
  afterAll(async () => {
    await client.query(`drop schema ${schema} cascade`);
    await client.end();
  });

  it('gathers statistics exactly when the server does not', async () => {
    const { rows } = await client.query<{ autovacuum: string }>('show autovacuum');
    const ran = await analyzeWithoutAutovacuum(url);
    expect(ran).toBe(rows[0].autovacuum !== 'on');
    if (ran) {
      const stats = await client.query(
        `select attname from pg_stats where schemaname = $1 and tablename = 't' order by attname`,
        [schema],
      );
      expect(stats.rows.map((r) => r.attname)).toEqual(['i', 'k']);
      const rel = await client.query<{ reltuples: number }>(
        `select reltuples from pg_class where oid = '${schema}.t'::regclass`,
      );
      expect(Number(rel.rows[0].reltuples)).toBe(5000);
    }
  });
});
