import { sql, type Kysely, type Transaction } from 'kysely';
import { prepared, preparedByKey } from '@mm/db';
import type { Access, SeriesSettings } from '../domain/series';
import type { Database, NewSeries, SeriesRow } from './schema';

/**
 * A series by id (the recordings service's series.resolve and the reads that have already
 * checked access); the reads of one turn of the event loop share a statement.
 */
const SERIES = preparedByKey(
  (db: Kysely<Database>, ids: string[]) => db.selectFrom('series').selectAll().where(sql<boolean>`id = any(${ids})`),
  (row) => row.id,
);
/**
 * A series by id if the account owns or joined it: one statement (the owner test, else the member
 * row), so a read of one series is one round trip whoever reads it. getSeries and series.resolve.
 */
const READABLE = prepared((db: Kysely<Database>, id: string, accountId: string) =>
  db
    .selectFrom('series')
    .selectAll()
    .where('id', '=', id)
    .where((eb) =>
      eb.or([
        eb('ownerId', '=', accountId),
        eb.exists(
          eb
            .selectFrom('member')
            .select('member.seriesId')
            .whereRef('member.seriesId', '=', 'series.id')
            .where('member.accountId', '=', accountId),
        ),
      ]),
    ),
);
/** The series an account owns or joined (listReadableSeries), in no order: one statement. */
const READABLE_LIST = prepared((db: Kysely<Database>, accountId: string) =>
  db
    .selectFrom('series')
    .selectAll()
    .where((eb) =>
      eb.or([
        eb('ownerId', '=', accountId),
        eb('id', 'in', eb.selectFrom('member').select('seriesId').where('accountId', '=', accountId)),
      ]),
    ),
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
    const row = await READABLE.first(db, id, accountId);
    if (!row) return undefined;
    // The statement only returns a series the account owns or joined: not the owner means a member.
    return { row, access: row.ownerId === accountId ? 'owner' : 'member' };
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
    // One prepared statement (one round trip): owned or joined, told apart by the owner.
    const rows = await READABLE_LIST.all(db, accountId);
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
