import { sql, type Kysely, type Transaction } from 'kysely';
import { prepared } from '@mm/db';
import type { Access, SeriesSettings } from '../domain/series';
import type { Database, NewSeries, SeriesRow } from './schema';

/** A series by id (every read of one series, and the recordings service's series.resolve). */
const SERIES = prepared((db: Kysely<Database>, id: string) => db.selectFrom('series').selectAll().where('id', '=', id));

/** A series by id with whether an account is a member of it (a reader's access), in one round trip. */
const SERIES_WITH_MEMBER = prepared((db: Kysely<Database>, id: string, accountId: string) =>
  db
    .selectFrom('series as s')
    .selectAll('s')
    .select((eb) =>
      eb
        .exists(
          eb
            .selectFrom('member as m')
            .select('m.seriesId')
            .whereRef('m.seriesId', '=', 's.id')
            .where('m.accountId', '=', accountId),
        )
        .as('isMember'),
    )
    .where('s.id', '=', id),
);

type Db = Kysely<Database> | Transaction<Database>;

const UNIQUE_VIOLATION = '23505';
const isDuplicateKey = (err: unknown) => (err as { code?: string }).code === UNIQUE_VIOLATION;

export interface SeriesPatch extends Partial<SeriesSettings> {
  name?: string;
  nameKey?: string;
}

/** Series, their members and the per-owner creation lock. */
export class SeriesRepository {
  constructor(readonly db: Kysely<Database>) {}

  /** Creates the owner's lock row if needed and locks it for the transaction. */
  async lockOwner(trx: Transaction<Database>, ownerId: string): Promise<void> {
    await trx
      .insertInto('seriesOwner')
      .values({ ownerId })
      .onConflict((oc) => oc.column('ownerId').doNothing())
      .execute();
    await trx.selectFrom('seriesOwner').select('ownerId').where('ownerId', '=', ownerId).forUpdate().execute();
  }

  async countOwned(db: Db, ownerId: string): Promise<number> {
    const r = await db
      .selectFrom('series')
      .select((eb) => eb.fn.countAll<string>().as('n'))
      .where('ownerId', '=', ownerId)
      .executeTakeFirstOrThrow();
    return Number(r.n);
  }

  /** Whether another of the owner's series has this name key. */
  async nameTaken(db: Db, ownerId: string, nameKey: string, exceptId?: string): Promise<boolean> {
    let q = db.selectFrom('series').select('id').where('ownerId', '=', ownerId).where('nameKey', '=', nameKey);
    if (exceptId) q = q.where('id', '!=', exceptId);
    return (await q.executeTakeFirst()) !== undefined;
  }

  /** Inserts a series; 'taken' when the name key was taken meanwhile. */
  async insert(db: Db, row: NewSeries): Promise<SeriesRow | 'taken'> {
    try {
      return await db.insertInto('series').values(row).returningAll().executeTakeFirstOrThrow();
    } catch (err) {
      if (isDuplicateKey(err)) return 'taken';
      throw err;
    }
  }

  /** A series the account owns or joined, with the account's access to it. */
  async findReadable(db: Db, accountId: string, id: string): Promise<{ row: SeriesRow; access: Access } | undefined> {
    const found = await SERIES_WITH_MEMBER.first(db, id, accountId);
    if (!found) return undefined;
    const { isMember, ...row } = found;
    if (row.ownerId === accountId) return { row, access: 'owner' };
    return isMember ? { row, access: 'member' } : undefined;
  }

  async findOwned(db: Db, ownerId: string, id: string): Promise<SeriesRow | undefined> {
    return db.selectFrom('series').selectAll().where('id', '=', id).where('ownerId', '=', ownerId).executeTakeFirst();
  }

  async findById(db: Db, id: string): Promise<SeriesRow | undefined> {
    return SERIES.first(db, id);
  }

  /** Owned series, then joined ones, each group by name (case ignored, then as written, then id for a stable order). */
  async listReadable(db: Db, accountId: string): Promise<{ row: SeriesRow; role: Access }[]> {
    const byName = <T extends { nameKey: string; name: string; id: string }>(a: T, b: T) =>
      a.nameKey < b.nameKey
        ? -1
        : a.nameKey > b.nameKey
          ? 1
          : a.name < b.name
            ? -1
            : a.name > b.name
              ? 1
              : a.id < b.id
                ? -1
                : 1;
    // One statement (one round trip): owned or joined, told apart by the owner.
    const rows = await db
      .selectFrom('series')
      .selectAll()
      .where((eb) =>
        eb.or([
          eb('ownerId', '=', accountId),
          eb('id', 'in', eb.selectFrom('member').select('seriesId').where('accountId', '=', accountId)),
        ]),
      )
      .execute();
    const owned = rows.filter((r) => r.ownerId === accountId);
    const joined = rows.filter((r) => r.ownerId !== accountId);
    // Sorted here rather than in SQL: the order must not depend on the database's collation.
    return [
      ...owned.sort(byName).map((row) => ({ row, role: 'owner' as const })),
      ...joined.sort(byName).map((row) => ({ row, role: 'member' as const })),
    ];
  }

  /** Applies a patch to an owned series; 'taken' when the new name key was taken meanwhile. */
  async update(db: Db, ownerId: string, id: string, patch: SeriesPatch): Promise<SeriesRow | 'taken' | undefined> {
    try {
      return await db
        .updateTable('series')
        .set({ ...patch, updatedAt: sql<Date>`now()` })
        .where('id', '=', id)
        .where('ownerId', '=', ownerId)
        .returningAll()
        .executeTakeFirst();
    } catch (err) {
      if (isDuplicateKey(err)) return 'taken';
      throw err;
    }
  }

  async replaceKeyterms(
    db: Db,
    ownerId: string,
    id: string,
    keyterms: string[],
    inheritAccountKeyterms: boolean,
  ): Promise<SeriesRow | undefined> {
    return db
      .updateTable('series')
      .set({ keyterms, inheritAccountKeyterms, updatedAt: sql<Date>`now()` })
      .where('id', '=', id)
      .where('ownerId', '=', ownerId)
      .returningAll()
      .executeTakeFirst();
  }

  /** Adds a member; false when the account already was one. */
  async addMember(db: Db, seriesId: string, accountId: string): Promise<boolean> {
    const r = await db
      .insertInto('member')
      .values({ seriesId, accountId })
      .onConflict((oc) => oc.columns(['seriesId', 'accountId']).doNothing())
      .executeTakeFirst();
    return Number(r.numInsertedOrUpdatedRows ?? 0) > 0;
  }
}
