import { randomBytes } from 'node:crypto';
import { countingStatements, migrateSchema, openDatabase } from '@mm/db';
import type { Kysely } from 'kysely';
import { migrations } from '../migrations';
import type { Database } from '../src/db/schema';
import { EventRepository, type FeedQuery } from '../src/db/event.repository';

const DATABASE_URL = process.env.DATABASE_URL!;
const DAY = 24 * 3600 * 1000;
let db: Kysely<Database>;
let repo: EventRepository;

beforeAll(async () => {
  await migrateSchema(DATABASE_URL, 'events', migrations);
  db = openDatabase<Database>({ url: DATABASE_URL, schema: 'events', poolSize: 2 }).db;
  repo = new EventRepository(db);
});

afterAll(async () => {
  await db.destroy();
});

/** An account of its own with events of two tokens and of none (an owner's), one a week old, in seq order. */
async function seed(): Promise<{ accountId: string; ids: string[]; seqs: bigint[] }> {
  const accountId = `acc_page_${randomBytes(6).toString('hex')}`;
  const tokens = ['tok_a', 'tok_b', null, 'tok_a', 'tok_b'];
  const ids: string[] = [];
  for (const [i, tokenId] of tokens.entries()) {
    const id = `${accountId}_${i}`;
    ids.push(id);
    await repo.insert({
      id,
      type: 'recording.created',
      recordingId: `rec_${accountId}_${i}`,
      accountId,
      tokenId,
      seriesId: null,
      occurredAt: new Date(Date.now() - (i === 0 ? 7 * DAY : 0)),
      data: JSON.stringify({ status: 'QUEUED' }),
    });
  }
  const rows = await db.selectFrom('event').select('seq').where('accountId', '=', accountId).orderBy('seq').execute();
  return { accountId, ids, seqs: rows.map((r) => BigInt(r.seq)) };
}

const query = (accountId: string, over: Partial<FeedQuery> = {}): FeedQuery => ({
  accountId,
  afterSeq: 0n,
  limit: 10,
  notBefore: new Date(Date.now() - 30 * DAY),
  ...over,
});

describe('the feed page, one prepared query per shape', () => {
  it("reads every event of the account, one token's, or none, after a seq, up to the limit, not before the date", async () => {
    const { accountId, ids, seqs } = await seed();
    const idsOf = (rows: { id: string }[]) => rows.map((r) => r.id);
    expect(idsOf(await repo.page(query(accountId)))).toEqual(ids);
    expect(idsOf(await repo.page(query(accountId, { tokenId: 'tok_a' })))).toEqual([ids[0], ids[3]]);
    expect(idsOf(await repo.page(query(accountId, { tokenId: 'tok_b' })))).toEqual([ids[1], ids[4]]);
    expect(await repo.page(query(accountId, { tokenId: null }))).toEqual([]);
    expect(idsOf(await repo.page(query(accountId, { afterSeq: seqs[1], limit: 2 })))).toEqual([ids[2], ids[3]]);
    expect(idsOf(await repo.page(query(accountId, { notBefore: new Date(Date.now() - DAY) })))).toEqual(ids.slice(1));
    // Another account's events are never read, whatever the shape.
    expect(await repo.page(query(`${accountId}_other`))).toEqual([]);
  });

  it('reads the page with the highest seq ever numbered in each shape, and the ceiling alone on an empty page', async () => {
    const { accountId, ids, seqs } = await seed();
    const all = await repo.pageWithCeiling(query(accountId, { afterSeq: seqs[0] }));
    expect(all.rows.map((r) => r.id)).toEqual(ids.slice(1));
    expect(all.ceiling).toBeGreaterThanOrEqual(seqs[4]);
    expect(all.rows[0]).toEqual(
      expect.objectContaining({ id: ids[1], seq: String(seqs[1]), type: 'recording.created', seriesId: null }),
    );
    expect(Object.keys(all.rows[0]).sort()).toEqual(
      ['data', 'id', 'occurredAt', 'recordingId', 'seq', 'seriesId', 'type'].sort(),
    );
    const token = await repo.pageWithCeiling(query(accountId, { tokenId: 'tok_b' }));
    expect(token.rows.map((r) => r.id)).toEqual([ids[1], ids[4]]);
    const none = await repo.pageWithCeiling(query(accountId, { tokenId: null }));
    expect(none.rows).toEqual([]);
    expect(none.ceiling).toBeGreaterThanOrEqual(seqs[4]);
    expect(await repo.currentSeq()).toBeGreaterThanOrEqual(seqs[4]);
  });
});

describe('latest', () => {
  it('is read once for the readers of one turn, never before an event stored before they asked', async () => {
    const { db: counted, sent } = countingStatements(db);
    const shared = new EventRepository(counted);
    const { seqs } = await seed();
    const together = await Promise.all([1, 2, 3, 4, 5].map(() => shared.currentSeq()));
    expect(sent.count).toBe(1);
    expect(new Set(together).size).toBe(1);
    expect(together[0]).toBeGreaterThanOrEqual(seqs[4]);
    // A reader of the next turn reads afresh, after an event stored since.
    const { seqs: later } = await seed();
    expect(await shared.currentSeq()).toBeGreaterThanOrEqual(later[4]);
    expect(sent.count).toBe(2);
  });
});

describe('cursor pages of one turn', () => {
  it('share one statement per shape, each page and ceiling as when read alone', async () => {
    const a = await seed();
    const b = await seed();
    const asked: FeedQuery[] = [
      query(a.accountId),
      query(a.accountId, { afterSeq: a.seqs[1], limit: 2 }),
      query(b.accountId, { afterSeq: b.seqs[0] }),
      query(a.accountId, { afterSeq: a.seqs[4] }),
      query(`${a.accountId}_other`),
      query(a.accountId, { notBefore: new Date(Date.now() - DAY) }),
      query(a.accountId, { tokenId: 'tok_a' }),
      query(b.accountId, { tokenId: 'tok_b', afterSeq: b.seqs[1] }),
    ];
    const alone = [];
    for (const q of asked) alone.push(await repo.pageWithCeiling(q));
    expect(alone.map((p) => p.rows.length)).toEqual([5, 2, 4, 0, 0, 4, 2, 1]);
    const { db: counted, sent } = countingStatements(db);
    const shared = new EventRepository(counted);
    const together = await Promise.all(asked.map((q) => shared.pageWithCeiling(q)));
    // Two shapes: every event of the account, and one token's.
    expect(sent.count).toBe(2);
    expect(together.map((p) => p.rows)).toEqual(alone.map((p) => p.rows));
    for (const p of together) expect(p.ceiling).toBeGreaterThanOrEqual(b.seqs[4]);
  });
});
