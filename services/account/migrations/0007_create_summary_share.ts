import { sql, type Kysely, type Migration } from 'kysely';

export const createSummaryShare: Migration = {
  async up(db: Kysely<any>) {
    // One row per summary emailed from the app by a person (to themself or a series' list): the
    // rows within the last day are what the per-account limit counts.
    await db.schema
      .createTable('summary_share')
      .addColumn('id', 'bigserial', (c) => c.primaryKey())
      .addColumn('account_id', 'text', (c) => c.notNull())
      .addColumn('recording_id', 'text', (c) => c.notNull())
      .addColumn('target', 'text', (c) => c.notNull().check(sql`target in ('me', 'series')`))
      .addColumn('recipients', 'integer', (c) => c.notNull())
      .addColumn('sent_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
      .execute();
    await db.schema
      .createIndex('summary_share_account_time')
      .on('summary_share')
      .columns(['account_id', 'sent_at'])
      .execute();
  },
  async down(db: Kysely<any>) {
    await db.schema.dropTable('summary_share').execute();
  },
};
