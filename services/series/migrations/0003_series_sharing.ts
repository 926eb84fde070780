import { sql, type Kysely, type Migration } from 'kysely';

/**
 * Series sharing in the app: invite links (only a keyed hash of the link's secret is kept), the
 * name a member joined under, and the series' email list.
 */
export const seriesSharing: Migration = {
  async up(db: Kysely<any>) {
    await db.schema
      .createTable('invite')
      .addColumn('secret_hash', 'text', (c) => c.primaryKey())
      .addColumn('series_id', 'text', (c) => c.notNull().references('series.id').onDelete('cascade'))
      .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
      .addColumn('expires_at', 'timestamptz', (c) => c.notNull())
      // Single use: the account that accepted it, and when.
      .addColumn('accepted_by', 'text')
      .addColumn('accepted_at', 'timestamptz')
      .execute();
    await db.schema.createIndex('invite_series').on('invite').column('series_id').execute();
    await db.schema.alterTable('member').addColumn('display_name', 'text').execute();
    await db.schema
      .alterTable('series')
      .addColumn('email_list', sql`text[]`, (c) => c.notNull().defaultTo(sql`'{}'::text[]`))
      .execute();
  },
  async down(db: Kysely<any>) {
    await db.schema.alterTable('series').dropColumn('email_list').execute();
    await db.schema.alterTable('member').dropColumn('display_name').execute();
    await db.schema.dropTable('invite').execute();
  },
};
