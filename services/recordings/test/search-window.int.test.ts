import { randomBytes } from 'node:crypto';
import { countingStatements, migrateSchema, openDatabase } from '@mm/db';
import { sql, type Kysely } from 'kysely';
import { migrations } from '../migrations';
import { searchTextHeh } from '../migrations/0011_search_text_heh';
import { searchWords } from '@mm/text';
import { refreshSearchText } from '../src/db/recordings.repository';
import type { Database } from '../src/db/schema';
import { SEARCH_WINDOW, SearchRepository } from '../src/db/search.repository';

/**
 * The search's reads against Postgres: the newest SEARCH_WINDOW meetings matched one by one, the
 * older ones only when the window was full and did not fill the page, and each match with the
 * digest and the one turn its snippet is cut from, in the same statement.
 */
const DATABASE_URL = process.env.DATABASE_URL!;
const HOUR = 3_600_000;
let db: Kysely<Database>;
const repo = new SearchRepository();

beforeAll(async () => {
  await migrateSchema(DATABASE_URL, 'recordings', migrations);
  db = openDatabase<Database>({ url: DATABASE_URL, schema: 'recordings', poolSize: 2 }).db;
});

afterAll(async () => {
  await db.destroy();
});

/**
 * `count` READY meetings of a new account, meeting i recorded i hours ago (0 the newest), whose
 * turns are `turns(i)`, written as the write path leaves them (refreshSearchText).
 */
async function seed(count: number, turns: (i: number) => string[]): Promise<{ accountId: string; ids: string[] }> {
  const accountId = `acc_sw_${randomBytes(6).toString('hex')}`;
  const ids: string[] = [];
  const now = Date.now();
  for (let i = 0; i < count; i++) {
    const id = `rec_${accountId}_${i}`;
    ids.push(id);
    const at = new Date(now - (i + 1) * HOUR);
    await db.transaction().execute(async (trx) => {
      const segments = turns(i).map((text, k) => ({
        index: k,
        speaker: 'speaker_1',
        startMs: k * 1000,
        endMs: k * 1000 + 900,
        text,
      }));
      await trx
        .insertInto('transcript')
        .values({
          recordingId: id,
          language: 'en',
          speakers: JSON.stringify([{ label: 'speaker_1', name: null }]),
          segments: JSON.stringify(segments),
          stats: JSON.stringify({ speakers: [], totalTurns: segments.length, durationMs: 60000 }),
        })
        .execute();
      await trx
        .insertInto('digest')
        .values({
          recordingId: id,
          type: 'MEETING',
          language: 'en',
          title: `Meeting ${i}`,
          sections: JSON.stringify([
            { kind: 'summary', title: 'Summary', text: `Summary of meeting ${i} about planning` },
          ]),
          markdown: `# Meeting ${i}`,
          generatedAt: at,
        })
        .execute();
      await trx
        .insertInto('recording')
        .values({
          id,
          accountId,
          tokenId: null,
          source: 'api',
          status: 'READY',
          title: null,
          kind: 'MEETING',
          outputLanguage: 'MATCH',
          naming: 'skip',
          keyterms: [],
          recordedAt: at,
          createdAt: at,
          readyAt: at,
          durationMs: 60000,
          minutes: 1,
          attachmentMinutes: 0,
          audioKey: `audio/${id}`,
          holdRef: `hold_${id}`,
          charged: true,
          readyOnce: true,
          updatedAt: at,
        })
        .execute();
      await refreshSearchText(trx, id);
    });
  }
  return { accountId, ids };
}

describe('the search repository', () => {
  it('gives each match its digest and the first turn holding a word, with where that turn starts', async () => {
    const { accountId, ids } = await seed(3, (i) =>
      i === 1 ? ['hello there', 'the budget is tight', 'budget again'] : ['nothing here', 'at all'],
    );
    const rows = await repo.matching(db, { accountId }, ['budget'], null, 5);
    expect(rows.map((r) => r.id)).toEqual([ids[1]]);
    expect(rows[0]).toMatchObject({
      part: 1,
      searchTurns: 3,
      turn: 'the budget is tight',
      turnMs: 1000,
      digestTitle: 'Meeting 1',
      digestLanguage: 'en',
    });
    // A word only the digest holds: the part is past the turns, and no turn is read.
    const digestOnly = await repo.matching(db, { accountId }, ['planning'], null, 5);
    expect(digestOnly.map((r) => r.id)).toEqual(ids);
    for (const r of digestOnly) expect({ turn: r.turn, turnMs: r.turnMs }).toEqual({ turn: null, turnMs: null });
    expect(digestOnly.every((r) => r.part !== null && r.searchTurns !== null && r.part >= r.searchTurns)).toBe(true);
    expect(await repo.matching(db, { accountId }, ['absent'], null, 5)).toEqual([]);
  });

  it('finds meetings older than the window when the window does not fill the page, newest first', async () => {
    const count = SEARCH_WINDOW + 12;
    // "rare" only in three meetings: the newest one and two older than the window; "common" in every one.
    const rare = new Set([0, SEARCH_WINDOW + 3, SEARCH_WINDOW + 9]);
    const { accountId, ids } = await seed(count, (i) => [`common words ${i}`, rare.has(i) ? 'a rare word' : 'plain']);
    const found = await repo.matching(db, { accountId }, ['rare'], null, 10);
    expect(found.map((r) => r.id)).toEqual([ids[0], ids[SEARCH_WINDOW + 3], ids[SEARCH_WINDOW + 9]]);
    expect(found.map((r) => r.turn)).toEqual(['a rare word', 'a rare word', 'a rare word']);
    // A page the window fills is taken from the window alone.
    const common = await repo.matching(db, { accountId }, ['common'], null, 20);
    expect(common.map((r) => r.id)).toEqual(ids.slice(0, 20));
    // A keyset position past the window's start: the window moves with it.
    const after = { createdAt: new Date(Date.now() - 100 * HOUR + HOUR / 2), id: 'rec_zzz' };
    const later = await repo.matching(db, { accountId }, ['rare'], after, 10);
    expect(later.map((r) => r.id)).toEqual([ids[SEARCH_WINDOW + 3], ids[SEARCH_WINDOW + 9]]);
  });

  it('needs every word, and reads no other account', async () => {
    const a = await seed(2, (i) => (i === 0 ? ['alpha beta'] : ['alpha only']));
    const b = await seed(1, () => ['alpha beta']);
    const both = await repo.matching(db, { accountId: a.accountId }, ['alpha', 'beta'], null, 5);
    expect(both.map((r) => r.id)).toEqual([a.ids[0]]);
    const alpha = await repo.matching(db, { accountId: a.accountId }, ['alpha'], null, 5);
    expect(alpha.map((r) => r.id)).toEqual(a.ids);
    expect(alpha.some((r) => r.id === b.ids[0])).toBe(false);
    // A LIKE wildcard in a word is a character, not a pattern.
    expect(await repo.matching(db, { accountId: a.accountId }, ['al%a'], null, 5)).toEqual([]);
  });

  it('keeps each set of filters apart: a series, a kind, a time window, and back to the account', async () => {
    const { accountId, ids } = await seed(6, (i) => [`budget talk ${i}`]);
    const seriesId = `ser_sw_${randomBytes(6).toString('hex')}`;
    await db.updateTable('recording').set({ seriesId }).where('id', 'in', [ids[1], ids[4]]).execute();
    await db.updateTable('recording').set({ kind: 'LECTURE' }).where('id', 'in', [ids[2], ids[4]]).execute();
    const run = async (q: Partial<Parameters<SearchRepository['matching']>[1]>) =>
      (await repo.matching(db, { accountId, ...q }, ['budget'], null, 10)).map((r) => r.id);
    expect(await run({ seriesId })).toEqual([ids[1], ids[4]]);
    expect(await run({})).toEqual(ids);
    expect(await run({ kind: 'LECTURE' })).toEqual([ids[2], ids[4]]);
    expect(await run({ seriesId, kind: 'LECTURE' })).toEqual([ids[4]]);
    const hoursAgo = (h: number) => new Date(Date.now() - h * HOUR).toISOString();
    // Meeting i was recorded i + 1 hours ago: from 4.5 h ago to 1.5 h ago holds meetings 1, 2 and 3.
    expect(await run({ from: hoursAgo(4.5), to: hoursAgo(1.5) })).toEqual([ids[1], ids[2], ids[3]]);
    expect(await run({ from: hoursAgo(4.5) })).toEqual([ids[0], ids[1], ids[2], ids[3]]);
    expect(await run({ kind: 'MEETING', to: hoursAgo(1.5) })).toEqual([ids[1], ids[3], ids[5]]);
    // A series none of the meetings is in finds nothing.
    expect(await run({ seriesId: 'ser_none' })).toEqual([]);
    expect(await run({})).toEqual(ids);
  });

  it('answers the searches of one turn from one statement per shape, each as it would be alone', async () => {
    const a = await seed(3, (i) => [`budget and roadmap ${i}`, i === 2 ? 'hiring plan' : 'nothing']);
    const b = await seed(2, () => ['budget only']);
    await db.updateTable('recording').set({ kind: 'LECTURE' }).where('id', '=', a.ids[1]).execute();
    const asked: Array<[Parameters<SearchRepository['matching']>[1], string[], number]> = [
      [{ accountId: a.accountId }, ['budget'], 2],
      [{ accountId: b.accountId }, ['budget'], 5],
      [{ accountId: a.accountId }, ['budget', 'roadmap'], 5],
      [{ accountId: a.accountId }, ['hiring'], 5],
      [{ accountId: b.accountId }, ['roadmap'], 5],
      [{ accountId: a.accountId, kind: 'LECTURE' }, ['budget'], 5],
      [{ accountId: a.accountId }, ['budget'], 2],
    ];
    const alone: string[][] = [];
    for (const [q, words, n] of asked) alone.push((await repo.matching(db, q, words, null, n)).map((r) => r.id));
    expect(alone).toEqual([a.ids.slice(0, 2), b.ids, a.ids, [a.ids[2]], [], [a.ids[1]], a.ids.slice(0, 2)]);
    const { db: counted, sent } = countingStatements(db);
    const together = await Promise.all(asked.map(([q, words, n]) => repo.matching(counted, q, words, null, n)));
    expect(together.map((rows) => rows.map((r) => r.id))).toEqual(alone);
    // Two shapes (by account; by account and kind): two statements for seven searches.
    expect(sent.count).toBe(2);
  });

  it('finds a heh written ۀ once migration 0011 rewrote the text stored before (session 37)', async () => {
    const { accountId, ids } = await seed(1, () => ['جلسهٔ خانۀ آزمایش']);
    const found = async (q: string) =>
      (await repo.matching(db, { accountId }, searchWords(q), null, 5)).map((r) => r.id);
    await expect(found('خانه')).resolves.toEqual(ids);
    // As the normalization before it wrote the text: ۀ decomposed to ە, kept.
    await db
      .updateTable('recording')
      .set({ searchText: sql<string>`replace(search_text, 'خانه', 'خانە')` })
      .where('id', '=', ids[0]!)
      .execute();
    await expect(found('خانه')).resolves.toEqual([]);
    await searchTextHeh.up(db);
    await expect(found('خانه')).resolves.toEqual(ids);
    await expect(found('خانۀ')).resolves.toEqual(ids);
  });
});
