import { sql, type Kysely, type Migration } from 'kysely';

export const createSummaryEmail: Migration = {
  async up(db: Kysely<any>) {
    // One row per meeting whose first digest was emailed (or is being, or was refused for good):
    // the row is what makes a redelivered fact, or a second replica, never send the same digest twice.
    await db.schema
      .createTable('summary_email')
      .addColumn('recording_id', 'text', (c) => c.primaryKey())
      .addColumn('account_id', 'text', (c) => c.notNull())
      .addColumn('state', 'text', (c) => c.notNull().check(sql`state in ('sending', 'sent', 'failed')`))
      .addColumn('claimed_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
      .addColumn('sent_at', 'timestamptz')
      .addColumn('message_id', 'text')
      .addColumn('error', 'text')
      .execute();
    await db.schema.createIndex('summary_email_account').on('summary_email').column('account_id').execute();
  },
  async down(db: Kysely<any>) {
    await db.schema.dropTable('summary_email').execute();
  },
};
