import { sql, type Kysely, type Migration } from 'kysely';

/** Every dead-letter replay the admin API made: what went where, and who asked (docs/operations.md). */
export const deadLetterReplay: Migration = {
  async up(db: Kysely<any>) {
    await db.schema
      .createTable('dead_letter_replay')
      .addColumn('id', 'bigserial', (c) => c.primaryKey())
      .addColumn('seq', 'bigint', (c) => c.notNull())
      .addColumn('subject', 'text', (c) => c.notNull())
      .addColumn('dead_lettered_by', 'text', (c) => c.notNull())
      .addColumn('payload_sha256', 'text', (c) => c.notNull())
      .addColumn('asked_by', 'text', (c) => c.notNull())
      .addColumn('client_address', 'text', (c) => c.notNull())
      .addColumn('request_id', 'text', (c) => c.notNull())
      .addColumn('replayed_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
      .execute();
  },
  async down(db: Kysely<any>) {
    await db.schema.dropTable('dead_letter_replay').execute();
  },
};
