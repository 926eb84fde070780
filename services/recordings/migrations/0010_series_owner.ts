import { sql, type Kysely, type Migration } from 'kysely';

/**
 * Who owns each series, as recordings learns it: a copy that lets a series read by its owner skip
 * the bus request to the series service (seriesResolve). A series' owner never changes and its id
 * is never reused, so a row written from seriesResolve's answer stays true until the series is
 * deleted; `seriesDeleted` marks the row deleted (a tombstone, written even for a series never
 * copied) in the same transaction that moves its meetings out. A row is only written when absent
 * (ON CONFLICT DO NOTHING), so an answer read before a deletion cannot bring the owner back.
 * Nothing is backfilled: a series is copied the first time its owner reaches it.
 */
export const seriesOwner: Migration = {
  async up(db: Kysely<any>) {
    await db.schema
      .createTable('series_owner')
      .addColumn('series_id', 'text', (c) => c.primaryKey())
      .addColumn('owner_id', 'text')
      .addColumn('deleted', 'boolean', (c) => c.notNull().defaultTo(false))
      .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
      .execute();
  },
  async down(db: Kysely<any>) {
    await db.schema.dropTable('series_owner').execute();
  },
};
