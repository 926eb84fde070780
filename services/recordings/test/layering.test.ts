import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

/**
 * The service's layers as issue 27 draws them: every query in db/ (the repositories and the one
 * transaction helper), so a use case reads as what it does and the transaction guard
 * (usecases.test.ts) sees every transaction.
 */
const SRC = path.join(__dirname, '../src');
const QUERY =
  /\.(selectFrom|insertInto|updateTable|deleteFrom|selectNoFrom|withRecursive)\(|\bsql\s*(<[^>]*>)?`|\.transaction\(\)/;

function files(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? files(path.join(dir, e.name)) : e.name.endsWith('.ts') ? [path.join(dir, e.name)] : [],
  );
}

const offending = (where: string[], pattern: RegExp) =>
  where.flatMap((f) =>
    readFileSync(f, 'utf8')
      .split('\n')
      .map((line, i) => ({ line, at: `${path.relative(SRC, f)}:${i + 1}` }))
      .filter(({ line }) => pattern.test(line))
      .map(({ at }) => at),
  );

it('no kysely query outside db/', () => {
  const outside = files(SRC).filter((f) => !path.relative(SRC, f).startsWith(`db${path.sep}`));
  expect(outside.length).toBeGreaterThan(20);
  expect(offending(outside, QUERY)).toEqual([]);
});

it('no transaction opened but through db/transaction.ts', () => {
  const others = files(SRC).filter((f) => path.relative(SRC, f) !== path.join('db', 'transaction.ts'));
  expect(offending(others, /\.transaction\(\)/)).toEqual([]);
});

it('the pattern finds a query where there is one', () => {
  expect(QUERY.test("await db.selectFrom('recording')")).toBe(true);
  expect(QUERY.test('await sql`select 1`.execute(db)')).toBe(true);
  expect(QUERY.test('await sql<{ n: number }>`select 1`')).toBe(true);
  expect(QUERY.test('db.transaction().execute(fn)')).toBe(true);
  expect(QUERY.test('const selected = 1')).toBe(false);
});
