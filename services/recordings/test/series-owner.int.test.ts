import { ApiError } from '@mm/http';
import { seriesDeleted } from '../src/bus/series-changed.handler';
import { principal, startHarness, type Harness } from './support/harness';

/**
 * Recordings' copy of who owns a series (migration 0010, MeetingAccess.seriesAccess): the owner's
 * first read asks the series service and is copied, the next ones ask nothing; a member and a
 * stranger ask every time; a deleted series is never answered from the copy again, even when an
 * answer read before the deletion arrives after it.
 */
let h: Harness;
beforeAll(async () => {
  h = await startHarness();
}, 60_000);
afterAll(async () => {
  await h?.close();
});

const owner = principal();
const member = principal();
const stranger = principal();

function newSeries(id: string): void {
  h.bus.addSeries(id, 'Board');
  h.bus.seriesReaders.set(
    id,
    new Map([
      [owner.accountId, 'owner'],
      [member.accountId, 'member'],
    ]),
  );
}

/** seriesResolve requests made while `fn` ran. */
async function asked(fn: () => Promise<unknown>): Promise<number> {
  const before = h.bus.calls.filter((c) => c.name === 'seriesResolve').length;
  await fn();
  return h.bus.calls.filter((c) => c.name === 'seriesResolve').length - before;
}

const reach = (p: ReturnType<typeof principal>, id: string) => h.useCases.access.reachSeries(p, id);
const copied = async (id: string) =>
  (await h.db.selectFrom('seriesOwner').selectAll().where('seriesId', '=', id).executeTakeFirst()) ?? null;

it('answers the owner from the copy after the first read, and everyone else from the series service', async () => {
  newSeries('ser_copy');
  expect(await copied('ser_copy')).toBeNull();
  expect(await asked(async () => expect(await reach(owner, 'ser_copy')).toBe('owner'))).toBe(1);
  expect(await copied('ser_copy')).toMatchObject({ ownerId: owner.accountId, deleted: false });
  expect(await asked(async () => expect(await reach(owner, 'ser_copy')).toBe('owner'))).toBe(0);
  // Reads of one turn share the copy's statement.
  expect(await asked(() => Promise.all([reach(owner, 'ser_copy'), reach(owner, 'ser_copy')]))).toBe(0);

  expect(await asked(async () => expect(await reach(member, 'ser_copy')).toBe('member'))).toBe(1);
  expect(await asked(async () => expect(await reach(member, 'ser_copy')).toBe('member'))).toBe(1);
  expect(await copied('ser_copy')).toMatchObject({ ownerId: owner.accountId });
  for (let i = 0; i < 2; i++)
    expect(await asked(() => expect(reach(stranger, 'ser_copy')).rejects.toThrow(ApiError))).toBe(1);
  // Series switched off: nobody reaches it, the owner included, and nothing is asked.
  const off = { ...owner, features: { ...owner.features, series: false } };
  expect(await asked(() => expect(reach(off, 'ser_copy')).rejects.toThrow('No series the token can reach'))).toBe(0);
});

it('never answers a deleted series from the copy', async () => {
  newSeries('ser_gone');
  await reach(owner, 'ser_gone');
  expect(await copied('ser_gone')).toMatchObject({ deleted: false });
  await seriesDeleted(h.db, 'ser_gone');
  h.bus.series.delete('ser_gone');
  expect(await copied('ser_gone')).toMatchObject({ deleted: true });
  expect(await asked(() => expect(reach(owner, 'ser_gone')).rejects.toThrow('No series the token can reach'))).toBe(1);
  // An owner's answer read before the deletion, copied after it, does not bring the copy back.
  await h.useCases.ctx.repos.seriesOwners.remember(h.db, 'ser_gone', owner.accountId);
  expect(await copied('ser_gone')).toMatchObject({ deleted: true });
  expect(await h.useCases.ctx.repos.seriesOwners.ownerOf(h.db, 'ser_gone')).toBeNull();
  // Deleting again (the series service retries) is harmless.
  await seriesDeleted(h.db, 'ser_gone');
  expect(await copied('ser_gone')).toMatchObject({ deleted: true });
});

it('asks the series service every time for a series whose deletion did not commit there', async () => {
  // recordings marked it deleted, then the series service's commit failed: the series still exists.
  newSeries('ser_kept');
  await seriesDeleted(h.db, 'ser_kept');
  for (let i = 0; i < 2; i++)
    expect(await asked(async () => expect(await reach(owner, 'ser_kept')).toBe('owner'))).toBe(1);
  expect(await copied('ser_kept')).toMatchObject({ ownerId: null, deleted: true });
});
