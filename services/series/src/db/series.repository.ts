import { sql, type Kysely, type Transaction } from 'kysely';
import { keyArray, preparedByKey, preparedByKeys, unnestKeys } from '@mm/db';
import type { Access, SeriesSettings } from '../domain/series';
import type { Database, NewSeries, SeriesRow } from './schema';

/**
 * A series by id (the recordings service's series.resolve and the reads that have already
 * checked access); the reads of one turn of the event loop share a statement.
 */
const SERIES = preparedByKey(
  (db: Kysely<Database>, ids: string[]) =>
    db
      .selectFrom('series')
      .selectAll()
      .where(sql<boolean>`id = any(${keyArray(ids)})`),
  (row) => row.id,
);
/** Each read's key beside the series it found: `reader` is the account the read was for. */
const keys = (ids: string[], accountIds: string[]) =>
  sql<{ id: string; accountId: string }>`${unnestKeys(ids, accountIds)}`.as<'k'>(sql`k(id, account_id)`);

/**
 * A series by id if the account owns or joined it: the owner test, else the member row, in
 * Postgres (getSeries, series.resolve). The reads of one turn share a statement, each (id, account)
 * pair answered by its own row.
 */
const READABLE = preparedByKeys(
  (db: Kysely<Database>, ids: string[], accountIds: string[]) =>
    db
      .selectFrom(keys(ids, accountIds))
      .innerJoin('series', 'series.id', 'k.id')
      .selectAll('series')
      .select('k.accountId as reader')
      .where((eb) =>
        eb.or([
          eb('series.ownerId', '=', eb.ref('k.accountId')),
          eb.exists(
            eb
              .selectFrom('member')
              .select('member.seriesId')
              .whereRef('member.seriesId', '=', 'series.id')
              .whereRef('member.accountId', '=', 'k.accountId'),
          ),
        ]),
      ),
  (row) => [row.id, row.reader],
);
/** A series by id if the account owns it (the owner's reads and writes): one statement per turn. */
const OWNED = preparedByKeys(
  (db: Kysely<Database>, ids: string[], ownerIds: string[]) =>
    db
      .selectFrom(keys(ids, ownerIds))
      .innerJoin('series', (j) => j.onRef('series.id', '=', 'k.id').onRef('series.ownerId', '=', 'k.accountId'))
      .selectAll('series'),
  (row) => [row.id, row.ownerId],
);
/**
 * The series an account owns or joined (listReadableSeries), in no order: owned, then joined, for
 * every account read in the turn in one statement.
 */
const READABLE_LIST = preparedByKeys(
  (db: Kysely<Database>, accountIds: string[]) => {
    const readers = sql<{ accountId: string }>`${unnestKeys(accountIds)}`.as<'k'>(sql`k(account_id)`);
    return db
      .selectFrom(readers)
      .innerJoin('series', 'series.ownerId', 'k.accountId')
      .selectAll('series')
      .select('k.accountId as reader')
      .unionAll(
        db
          .selectFrom(readers)
          .innerJoin('member', 'member.accountId', 'k.accountId')
          .innerJoin('series', 'series.id', 'member.seriesId')
          .selectAll('series')
          .select('k.accountId as reader')
          .whereRef('series.ownerId', '!=', 'k.accountId'),
      );
  },
  (row) => [row.reader],
);

/** A row as the series table holds it, without the account its read was for. */
function withoutReader<R extends SeriesRow & { reader: string }>(found: R): SeriesRow {
  const { reader: _reader, ...row } = found;
  return row;
}

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
    const found = await READABLE.first(db, id, accountId);
    if (!found) return undefined;
    // The statement only returns a series the account owns or joined: not the owner means a member.
    return { row: withoutReader(found), access: found.ownerId === accountId ? 'owner' : 'member' };
  }

  async findOwned(db: Db, ownerId: string, id: string): Promise<SeriesRow | undefined> {
    return OWNED.first(db, id, ownerId);
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
    // One prepared statement (one round trip, shared by the turn): owned or joined, told apart by the owner.
    const rows = (await READABLE_LIST.all(db, accountId)).map(withoutReader);
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
