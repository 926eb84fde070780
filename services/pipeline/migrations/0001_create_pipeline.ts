import { sql, type Kysely, type Migration } from 'kysely';

/** The outbox table as the first release made it (frozen here: migrations import nothing from libs/). */
async function createOutbox(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('outbox')
    .addColumn('seq', 'bigserial', (c) => c.primaryKey())
    .addColumn('id', 'text', (c) => c.notNull().unique())
    .addColumn('subject', 'text', (c) => c.notNull())
    .addColumn('payload', 'jsonb', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('published_at', 'timestamptz')
    .execute();
  await sql`create index outbox_unpublished on outbox (seq) where published_at is null`.execute(db);
}

export const createPipeline: Migration = {
  async up(db: Kysely<any>) {
    await db.schema
      .createTable('job')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('recording_id', 'text', (c) => c.notNull())
      .addColumn('step', 'text', (c) => c.notNull())
      .addColumn('status', 'text', (c) => c.notNull())
      .addColumn('attempt', 'integer', (c) => c.notNull())
      .addColumn('error_code', 'text')
      .addColumn('payload', 'jsonb', (c) => c.notNull())
      .addColumn('started_at', 'timestamptz')
      .addColumn('finished_at', 'timestamptz')
      .addColumn('engine_ms', 'integer')
      .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
      .execute();
    await db.schema
      .createTable('timer')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('kind', 'text', (c) => c.notNull())
      .addColumn('recording_id', 'text', (c) => c.notNull())
      .addColumn('run_at', 'timestamptz', (c) => c.notNull())
      .addColumn('payload', 'jsonb', (c) => c.notNull())
      .addColumn('fired_at', 'timestamptz')
      .execute();
    await sql`create index timer_due on timer (run_at) where fired_at is null`.execute(db);
    await createOutbox(db);
  },
  async down(db: Kysely<any>) {
    await db.schema.dropTable('outbox').execute();
    await db.schema.dropTable('timer').execute();
    await db.schema.dropTable('job').execute();
  },
};
