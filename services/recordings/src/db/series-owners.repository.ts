import { sql, type Kysely } from 'kysely';
import { keyArray, preparedByKey } from '@mm/db';
import type { Db } from './recordings.repository';
import type { Database } from './schema';

/** The owners of some series, copied and not deleted (the reads of one turn share the statement). */
const OWNER = preparedByKey(
  (db: Kysely<Database>, ids: string[]) =>
    db
      .selectFrom('seriesOwner')
      .select(['seriesId', 'ownerId'])
      .where('deleted', '=', false)
      .where(sql<boolean>`series_id = any(${keyArray(ids)})`),
  (row) => row.seriesId,
);

/**
 * Recordings' copy of who owns each series (migration 0010): written from the series service's
 * answers, never overwritten, and marked deleted when the series is deleted.
 */
export class SeriesOwnerRepository {
  /** The series' owner as copied, or null when it is not copied (or deleted). */
  async ownerOf(db: Db, seriesId: string): Promise<string | null> {
    return (await OWNER.first(db, seriesId))?.ownerId ?? null;
  }

  /**
   * Copies an owner the series service answered; a row already there (a deleted series' mark
   * among them) is kept, so an answer read before the deletion cannot undo it.
   */
  async remember(db: Db, seriesId: string, ownerId: string): Promise<void> {
    await db
      .insertInto('seriesOwner')
      .values({ seriesId, ownerId })
      .onConflict((oc) => oc.column('seriesId').doNothing())
      .execute();
  }

  /** Marks a series deleted (written even for a series not copied); idempotent. */
  async forget(db: Db, seriesId: string): Promise<void> {
    await db
      .insertInto('seriesOwner')
      .values({ seriesId, ownerId: null, deleted: true })
      .onConflict((oc) => oc.column('seriesId').doUpdateSet({ deleted: true }))
      .execute();
  }
}
