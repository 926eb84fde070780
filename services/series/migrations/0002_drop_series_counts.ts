import { sql, type Kysely, type Migration } from 'kysely';

/** Meeting counts are asked of the recordings service at read time; the copies were never read. */
export const dropSeriesCounts: Migration = {
  async up(db: Kysely<any>) {
    await db.schema.alterTable('series').dropColumn('meeting_count').dropColumn('last_recorded_at').execute();
  },
  async down(db: Kysely<any>) {
    await db.schema
      .alterTable('series')
      .addColumn('meeting_count', 'integer', (c) => c.notNull().defaultTo(0).check(sql`meeting_count >= 0`))
      .addColumn('last_recorded_at', 'timestamptz')
      .execute();
  },
};
