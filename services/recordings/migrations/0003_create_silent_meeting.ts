import { sql, type Kysely, type Migration } from 'kysely';

/** Silent meetings that failed for free (NO_SPEECH), per account: the daily allowance counts them. */
export const createSilentMeeting: Migration = {
  async up(db: Kysely<any>) {
    await db.schema
      .createTable('silent_meeting')
      .addColumn('recording_id', 'text', (c) => c.primaryKey())
      .addColumn('account_id', 'text', (c) => c.notNull())
      .addColumn('failed_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
      .execute();
    await db.schema
      .createIndex('silent_meeting_account_time')
      .on('silent_meeting')
      .columns(['account_id', 'failed_at'])
      .execute();
  },
  async down(db: Kysely<any>) {
    await db.schema.dropTable('silent_meeting').execute();
  },
};
