import { randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import { countingStatements, migrateSchema, openDatabase } from '@mm/db';
import { ApiError } from '@mm/http';
import { migrations } from '../migrations';
import type { Database } from '../src/db/schema';
import type { MeetingStats } from '../src/domain/series';
import { SeriesService, type MeetingStatsSource } from '../src/services/series.service';

const DATABASE_URL = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/meeting_memory_test';

class FakeStats implements MeetingStatsSource {
  calls: string[][] = [];
  async statsOf(ids: string[]): Promise<Map<string, MeetingStats>> {
    this.calls.push(ids);
    return new Map(ids.map((id) => [id, { meetingCount: 1, lastRecordedAt: null }]));
  }
  async seriesChanged(): Promise<void> {}
}

let base: Kysely<Database>;
let db: Kysely<Database>;
let sent: { count: number };
beforeAll(async () => {
  await migrateSchema(DATABASE_URL, 'series', migrations);
  base = openDatabase<Database>({ url: DATABASE_URL, schema: 'series', poolSize: 2 }).db;
  ({ db, sent } = countingStatements(base));
});
afterAll(async () => {
  await base.destroy();
});

const newAccount = () => `acc_test_${randomBytes(6).toString('hex')}`;
/** Statements the call sends to Postgres. */
async function statements<T>(f: () => Promise<T>): Promise<{ value: T; n: number }> {
  const before = sent.count;
  const value = await f();
  return { value, n: sent.count - before };
}

describe('series reads: one statement each (issue 30)', () => {
  it('getSeries is one statement and one stats request for the owner, a member, and a stranger (404, no stats)', async () => {
    const stats = new FakeStats();
    const series = new SeriesService(db, stats);
    const owner = newAccount();
    const member = newAccount();
    const stranger = newAccount();
    const row = await series.create(owner, { name: 'Weekly' });
    await series.addMember(row.id, member);

    const asOwner = await statements(() => series.get(owner, row.id));
    expect(asOwner.n).toBe(1);
    expect(asOwner.value.access).toBe('owner');
    expect(asOwner.value.row).toEqual(row);

    const asMember = await statements(() => series.get(member, row.id));
    expect(asMember.n).toBe(1);
    expect(asMember.value.access).toBe('member');
    expect(asMember.value.row).toEqual(row);
    expect(Object.keys(asMember.value.row).sort()).toEqual(Object.keys(row).sort());

    stats.calls = [];
    const before = sent.count;
    await expect(series.get(stranger, row.id)).rejects.toMatchObject({ code: 'NOT_FOUND' });
    await expect(series.get(owner, 'ser_missing')).rejects.toBeInstanceOf(ApiError);
    expect(sent.count - before).toBe(2);
    expect(stats.calls).toEqual([]);
  });

  it('series.resolve answers the access from the same single statement', async () => {
    const series = new SeriesService(db, new FakeStats());
    const owner = newAccount();
    const member = newAccount();
    const row = await series.create(owner, { name: 'Resolve me' });
    await series.addMember(row.id, member);
    expect((await series.resolve(owner, row.id)).access).toBe('owner');
    const m = await statements(() => series.resolve(member, row.id));
    expect(m.value.access).toBe('member');
    expect(m.n).toBe(1);
    await expect(series.resolve(newAccount(), row.id)).rejects.toMatchObject({ code: 'NOT_FOUND' });
  });

  it('listReadableSeries is one statement and one stats request: owned by name, then joined by name', async () => {
    const stats = new FakeStats();
    const series = new SeriesService(db, stats);
    const me = newAccount();
    const other = newAccount();
    const b = await series.create(me, { name: 'bravo' });
    const a = await series.create(me, { name: 'Alpha' });
    const joined = await series.create(other, { name: 'Aardvark' });
    await series.create(other, { name: 'Not joined' });
    await series.addMember(joined.id, me);

    const list = await statements(() => series.listReadable(me));
    expect(list.n).toBe(1);
    expect(stats.calls).toEqual([[a.id, b.id, joined.id]]);
    expect(list.value.map((r) => [r.row.id, r.role])).toEqual([
      [a.id, 'owner'],
      [b.id, 'owner'],
      [joined.id, 'member'],
    ]);

    stats.calls = [];
    const none = await statements(() => series.listReadable(newAccount()));
    expect(none).toEqual({ value: [], n: 1 });
    expect(stats.calls).toEqual([]);
  });

  it('reads of one turn share a statement, each answered for its own reader: the owner, a member, a stranger (404)', async () => {
    const series = new SeriesService(db, new FakeStats());
    const owner = newAccount();
    const member = newAccount();
    const stranger = newAccount();
    const row = await series.create(owner, { name: 'Shared turn' });
    await series.addMember(row.id, member);
    const mine = await series.create(member, { name: 'Member owns this' });

    const turn = await statements(() =>
      Promise.allSettled([
        series.readable(owner, row.id),
        series.readable(member, row.id),
        series.readable(stranger, row.id),
        series.owned(owner, row.id),
        series.owned(member, row.id),
        series.owned(stranger, row.id),
        series.readable(owner, mine.id),
      ]),
    );
    const [asOwner, asMember, asStranger, ownedByOwner, ownedByMember, ownedByStranger, notOwners] = turn.value;
    expect(asOwner).toEqual({ status: 'fulfilled', value: { row, access: 'owner' } });
    expect(asMember).toEqual({ status: 'fulfilled', value: { row, access: 'member' } });
    expect(asStranger).toMatchObject({ status: 'rejected', reason: { code: 'NOT_FOUND' } });
    expect(ownedByOwner).toEqual({ status: 'fulfilled', value: row });
    expect(ownedByMember).toMatchObject({ status: 'rejected', reason: { code: 'NOT_FOUND' } });
    expect(ownedByStranger).toMatchObject({ status: 'rejected', reason: { code: 'NOT_FOUND' } });
    expect(notOwners).toMatchObject({ status: 'rejected', reason: { code: 'NOT_FOUND' } });
    // One statement for the readable reads, one for the owned ones.
    expect(turn.n).toBe(2);
  });

  it('lists of one turn share a statement, each reader seeing only its own series', async () => {
    const series = new SeriesService(db, new FakeStats());
    const a = newAccount();
    const b = newAccount();
    const sa = await series.create(a, { name: 'A one' });
    const sb = await series.create(b, { name: 'B one' });
    await series.addMember(sb.id, a);
    const lists = await statements(() =>
      Promise.all([series.listReadable(a), series.listReadable(b), series.listReadable(newAccount())]),
    );
    expect(lists.value.map((l) => l.map((r) => [r.row.id, r.role]))).toEqual([
      [
        [sa.id, 'owner'],
        [sb.id, 'member'],
      ],
      [[sb.id, 'owner']],
      [],
    ]);
    expect(lists.value[0]![0]!.row).toEqual(sa);
    expect(lists.n).toBe(1);
  });

  it("the app's owned series (the upload page) are one statement and no stats request: owned by name, joined left out", async () => {
    const stats = new FakeStats();
    const series = new SeriesService(db, stats);
    const owner = newAccount();
    const other = newAccount();
    const b = await series.create(owner, { name: 'beta', defaultKind: 'LECTURE', defaultOutputLanguage: 'FA' });
    const a = await series.create(owner, { name: 'Alpha' });
    const joined = await series.create(other, { name: 'Aardvark' });
    await series.addMember(joined.id, owner);

    const owned = await statements(() => series.listOwned(owner));
    expect(owned.n).toBe(1);
    expect(stats.calls).toEqual([]);
    expect(owned.value.map((r) => [r.id, r.defaultKind, r.defaultOutputLanguage])).toEqual([
      [a.id, 'MEETING', 'MATCH'],
      [b.id, 'LECTURE', 'FA'],
    ]);
    // The member's own list holds nothing of the owner's, and a stranger has none.
    expect((await series.listOwned(other)).map((r) => r.id)).toEqual([joined.id]);
    await expect(series.listOwned(newAccount())).resolves.toEqual([]);
  });
});
