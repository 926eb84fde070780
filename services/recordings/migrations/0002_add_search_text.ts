import { sql, type Kysely, type Migration } from 'kysely';

/** The normalized text search reads: title, transcript and digest of a finished meeting. */
export const addSearchText: Migration = {
  async up(db: Kysely<any>) {
    await db.schema.alterTable('recording').addColumn('search_text', 'text').execute();
    await sql`create index recording_search_order on recording (account_id, recorded_at desc, id desc) where status = 'READY' and deleted_at is null`.execute(
      db,
    );
  },
  async down(db: Kysely<any>) {
    await sql`drop index recording_search_order`.execute(db);
    await db.schema.alterTable('recording').dropColumn('search_text').execute();
  },
};
