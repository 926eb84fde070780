import { randomBytes } from 'node:crypto';
import { Client } from 'pg';
import { analyzeDatabase, ensureDatabase } from '../src/database';

/**
 * `pnpm start` gathers the planner's statistics once at start on a server without autovacuum
 * (this machine's) and leaves them to autovacuum on one with it; the bench always gathers them.
 */
describe('analyzeDatabase', () => {
  const url = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/meeting_memory_test';
  const schema = `stats_${randomBytes(4).toString('hex')}`;
  const client = new Client({ connectionString: url });

  beforeAll(async () => {
    await ensureDatabase(url);
    await client.connect();
    await client.query(`create schema ${schema}`);
  });
  afterAll(async () => {
    await client.query(`drop schema ${schema} cascade`);
    await client.end();
  });

  /** A new table with no statistics yet. */
  async function freshTable(name: string): Promise<void> {
    await client.query(`create table ${schema}.${name} as select i, i % 7 as k from generate_series(1, 5000) as i`);
  }
  async function columnsWithStatistics(name: string): Promise<string[]> {
    const stats = await client.query<{ attname: string }>(
      'select attname from pg_stats where schemaname = $1 and tablename = $2 order by attname',
      [schema, name],
    );
    return stats.rows.map((r) => r.attname);
  }

  it('unlessAutovacuum: gathers statistics exactly when the server does not', async () => {
    const { rows } = await client.query<{ autovacuum: string }>('show autovacuum');
    await freshTable('t1');
    const r = await analyzeDatabase(url, { unlessAutovacuum: true });
    expect(r).toEqual({ analyzed: rows[0].autovacuum !== 'on', autovacuum: rows[0].autovacuum === 'on' });
    if (r.analyzed) {
      expect(await columnsWithStatistics('t1')).toEqual(['i', 'k']);
      const rel = await client.query<{ reltuples: number }>(
        `select reltuples from pg_class where oid = '${schema}.t1'::regclass`,
      );
      expect(Number(rel.rows[0].reltuples)).toBe(5000);
    }
  });

  it('gathers them always when asked without the condition (the bench)', async () => {
    await freshTable('t2');
    expect((await analyzeDatabase(url)).analyzed).toBe(true);
    expect(await columnsWithStatistics('t2')).toEqual(['i', 'k']);
  });
});
