import { sql, type Kysely, type Migration } from 'kysely';

/** The app's own data: share links of a meeting (the API has no such concept). */
export const createShareLink: Migration = {
  async up(db: Kysely<any>) {
    await db.schema
      .createTable('share_link')
      .addColumn('id', 'text', (c) => c.primaryKey())
      // A keyed hash of the link's secret (the secret itself is only in the link).
      .addColumn('secret_hash', 'text', (c) => c.notNull().unique())
      .addColumn('account_id', 'text', (c) => c.notNull())
      .addColumn('recording_id', 'text', (c) => c.notNull())
      .addColumn('include_audio', 'boolean', (c) => c.notNull().defaultTo(false))
      .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
      .addColumn('expires_at', 'timestamptz')
      .addColumn('revoked_at', 'timestamptz')
      .execute();
    await db.schema.createIndex('share_link_owner').on('share_link').columns(['account_id', 'recording_id']).execute();
  },
  async down(db: Kysely<any>) {
    await db.schema.dropTable('share_link').execute();
  },
};
