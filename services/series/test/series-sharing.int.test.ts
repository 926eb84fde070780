import { randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import { migrateSchema, openDatabase } from '@mm/db';
import type { Database } from '../src/db/schema';
import type { MeetingStats } from '../src/domain/series';
import { SeriesService, type MeetingStatsSource } from '../src/services/series.service';
import { SeriesSharingService } from '../src/services/series-sharing.service';
import { migrations } from '../migrations';

const DATABASE_URL = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/meeting_memory_test';
const noStats: MeetingStatsSource = {
  statsOf: async (ids: string[]) =>
    new Map<string, MeetingStats>(ids.map((id) => [id, { meetingCount: 0, lastRecordedAt: null }])),
  seriesChanged: async () => undefined,
};

/** The series recordings was told were deleted (a meeting owner that fails once the flag is set). */
const deletedSeries: string[] = [];
let recordingsDown = false;
const meetings = {
  seriesDeleted: async (seriesId: string) => {
    if (recordingsDown) throw new Error('recordings did not answer');
    deletedSeries.push(seriesId);
  },
};

let db: Kysely<Database>;
let series: SeriesService;
let sharing: SeriesSharingService;
beforeAll(async () => {
  await migrateSchema(DATABASE_URL, 'series', migrations);
  db = openDatabase<Database>({ url: DATABASE_URL, schema: 'series', poolSize: 2 }).db;
  series = new SeriesService(db, noStats);
  sharing = new SeriesSharingService(db, 'a test key of the series service', meetings);
});
afterAll(async () => {
  await db.destroy();
});

const acc = () => `acc_test_${randomBytes(6).toString('hex')}`;
const code = (p: Promise<unknown>) =>
  p.then(
    () => 'ok',
    (e: { code?: string }) => e.code,
  );

describe('series sharing (invites, members, email list, delete)', () => {
  it('makes 256-bit single-use invite secrets and stores only their keyed hash', async () => {
    const owner = acc();
    const s = await series.create(owner, { name: 'Crit' });
    const a = await sharing.createInvite(owner, s.id);
    const b = await sharing.createInvite(owner, s.id);
    expect(a.secret).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(Buffer.from(a.secret, 'base64url')).toHaveLength(32);
    expect(a.secret).not.toBe(b.secret);
    const stored = await db.selectFrom('invite').select('secretHash').where('seriesId', '=', s.id).execute();
    expect(stored).toHaveLength(2);
    expect(stored.map((r) => r.secretHash)).not.toContain(a.secret);
    // Another account cannot make invites to it: NOT_FOUND, as for a missing series.
    await expect(code(sharing.createInvite(acc(), s.id))).resolves.toBe('NOT_FOUND');

    const guest = acc();
    await expect(sharing.readInvite(guest, a.secret)).resolves.toMatchObject({
      seriesId: s.id,
      seriesName: 'Crit',
      alreadyIn: false,
    });
    await expect(sharing.acceptInvite(guest, 'Bahar', a.secret)).resolves.toEqual({ seriesId: s.id, joined: true });
    // Again by the same person: nothing new. By someone else: gone.
    await expect(sharing.acceptInvite(guest, 'Bahar', a.secret)).resolves.toEqual({ seriesId: s.id, joined: false });
    await expect(code(sharing.readInvite(acc(), a.secret))).resolves.toBe('NOT_FOUND');
    await expect(code(sharing.acceptInvite(acc(), null, a.secret))).resolves.toBe('NOT_FOUND');
    // The owner's own link does not make them a member.
    await expect(code(sharing.acceptInvite(owner, null, b.secret))).resolves.toBe('VALIDATION');
    // A guessed secret, and an expired one, find nothing.
    await expect(code(sharing.readInvite(guest, randomBytes(32).toString('base64url')))).resolves.toBe('NOT_FOUND');
    await db
      .updateTable('invite')
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where('seriesId', '=', s.id)
      .where('acceptedBy', 'is', null)
      .execute();
    await expect(code(sharing.acceptInvite(acc(), null, b.secret))).resolves.toBe('NOT_FOUND');

    const listed = await sharing.members(owner, s.id);
    expect(listed.members).toEqual([{ accountId: guest, displayName: 'Bahar', joinedAt: expect.any(String) }]);
    expect(listed.invites).toEqual([]);
    // The member sees the members, never the invites; a stranger sees nothing.
    await expect(sharing.members(guest, s.id)).resolves.toMatchObject({ invites: [] });
    await expect(code(sharing.members(acc(), s.id))).resolves.toBe('NOT_FOUND');
    await expect(series.readable(guest, s.id)).resolves.toMatchObject({ access: 'member' });
  });

  it('lets the owner remove a member and a member leave, and nobody else', async () => {
    const owner = acc();
    const [m1, m2] = [acc(), acc()];
    const s = await series.create(owner, { name: 'Weekly' });
    await series.addMember(s.id, m1);
    await series.addMember(s.id, m2);
    // A member cannot remove another member; a stranger cannot remove anyone.
    await expect(code(sharing.removeMember(m1, s.id, m2))).resolves.toBe('NOT_FOUND');
    await expect(code(sharing.removeMember(acc(), s.id, m1))).resolves.toBe('NOT_FOUND');
    await sharing.removeMember(owner, s.id, m1);
    await expect(code(series.readable(m1, s.id))).resolves.toBe('NOT_FOUND');
    await sharing.removeMember(m2, s.id, m2);
    await expect(code(series.readable(m2, s.id))).resolves.toBe('NOT_FOUND');
    await expect(code(sharing.removeMember(owner, s.id, m2))).resolves.toBe('NOT_FOUND');
  });

  it('keeps an email list for the owner only, and deletes a series for its owner only', async () => {
    const owner = acc();
    const member = acc();
    const s = await series.create(owner, { name: 'Board' });
    await series.addMember(s.id, member);
    await expect(
      sharing.replaceEmailList(owner, s.id, [' Sara@Example.test', 'sara@example.test', 'omid@example.test']),
    ).resolves.toEqual(['sara@example.test', 'omid@example.test']);
    await expect(sharing.emailList(owner, s.id)).resolves.toEqual(['sara@example.test', 'omid@example.test']);
    await expect(code(sharing.emailList(member, s.id))).resolves.toBe('NOT_FOUND');
    await expect(code(sharing.replaceEmailList(member, s.id, []))).resolves.toBe('NOT_FOUND');
    await sharing.createInvite(owner, s.id);
    await expect(code(sharing.deleteSeries(member, s.id))).resolves.toBe('NOT_FOUND');
    expect(deletedSeries).not.toContain(s.id);
    // Recordings unreachable: the meetings cannot move out, so nothing is deleted.
    recordingsDown = true;
    await expect(sharing.deleteSeries(owner, s.id)).rejects.toThrow('recordings did not answer');
    recordingsDown = false;
    await expect(series.readable(owner, s.id)).resolves.toMatchObject({ row: { id: s.id } });
    await sharing.deleteSeries(owner, s.id);
    expect(deletedSeries).toContain(s.id);
    await expect(code(series.readable(owner, s.id))).resolves.toBe('NOT_FOUND');
    await expect(code(series.readable(member, s.id))).resolves.toBe('NOT_FOUND');
    expect(await db.selectFrom('invite').select('secretHash').where('seriesId', '=', s.id).execute()).toEqual([]);
    expect(await db.selectFrom('member').select('accountId').where('seriesId', '=', s.id).execute()).toEqual([]);
    // The name is free again.
    await expect(series.create(owner, { name: 'Board' })).resolves.toMatchObject({ name: 'Board' });
  });
});
