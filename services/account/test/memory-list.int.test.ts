import { randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import { countingStatements, migrateSchema, openDatabase } from '@mm/db';
import { migrations } from '../migrations';
import type { Database, MemoryCategory } from '../src/db/schema';
import { MemoryRepository } from '../src/db/memory.repository';

/** The memory lists of one turn share one statement (real Postgres), each account answered as alone. */
const DATABASE_URL = process.env.DATABASE_URL!;

let db: Kysely<Database>;
let destroy: () => Promise<void>;

beforeAll(async () => {
  await migrateSchema(DATABASE_URL, 'account', migrations);
  const opened = openDatabase<Database>({ url: DATABASE_URL, schema: 'account', poolSize: 4 });
  db = opened.db;
  destroy = () => opened.db.destroy();
});
afterAll(() => destroy());

const unique = () => randomBytes(6).toString('hex');

async function addNote(accountId: string, category: MemoryCategory, text: string, meetingCount: number) {
  await db
    .insertInto('memoryNote')
    .values({ id: `mem_${unique()}`, accountId, category, text, textKey: text.toLowerCase(), meetingCount })
    .execute();
}

/** Three accounts with notes in several categories and counts, one with none. */
async function accounts(): Promise<string[]> {
  const [a, b, c, empty] = [unique(), unique(), unique(), unique()].map((s) => `acc_${s}`);
  await addNote(a, 'TERMS', 'Kubernetes', 1);
  await addNote(a, 'ABOUT_YOU', 'Runs the platform team', 2);
  await addNote(a, 'TERMS', 'Helm', 4);
  await addNote(b, 'PEOPLE', 'Dana leads design', 3);
  await addNote(c, 'PEOPLE', 'Omid owns billing', 1);
  await addNote(c, 'PEOPLE', 'Sara owns search', 5);
  return [a!, b!, c!, empty!];
}

test('lists of one turn are one statement, each account its own notes in the order a list alone gives', async () => {
  const ids = await accounts();
  const repo = new MemoryRepository(db);
  const alone: string[][] = [];
  for (const id of ids) alone.push((await repo.list(db, id)).map((n) => n.text));
  expect(alone).toEqual([
    ['Runs the platform team', 'Helm', 'Kubernetes'],
    ['Dana leads design'],
    ['Sara owns search', 'Omid owns billing'],
    [],
  ]);

  const counted = countingStatements(db);
  const together = await Promise.all(ids.map((id) => repo.list(counted.db, id)));
  expect(counted.sent.count).toBe(1);
  expect(together.map((notes) => notes.map((n) => n.text))).toEqual(alone);
});

test('a list after a write sees it, and a transaction lists its own write alone', async () => {
  const [a] = await accounts();
  const repo = new MemoryRepository(db);
  await addNote(a!, 'PEOPLE', 'Lee joined the team', 9);
  expect((await repo.list(db, a!)).map((n) => n.text)).toContain('Lee joined the team');

  await db.transaction().execute(async (trx) => {
    await trx
      .insertInto('memoryNote')
      .values({
        id: `mem_${unique()}`,
        accountId: a!,
        category: 'TERMS',
        text: 'Argo',
        textKey: 'argo',
        meetingCount: 7,
      })
      .execute();
    expect((await repo.list(trx, a!)).map((n) => n.text)).toContain('Argo');
  });
});
