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

export const createRecordings: Migration = {
  async up(db: Kysely<any>) {
    await db.schema
      .createTable('recording')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('account_id', 'text', (c) => c.notNull())
      .addColumn('token_id', 'text')
      .addColumn('source', 'text', (c) => c.notNull())
      .addColumn('status', 'text', (c) => c.notNull())
      .addColumn('title', 'text')
      .addColumn('kind', 'text', (c) => c.notNull())
      .addColumn('output_language', 'text', (c) => c.notNull())
      .addColumn('naming', 'text', (c) => c.notNull())
      .addColumn('keyterms', sql`text[]`, (c) => c.notNull())
      .addColumn('series_id', 'text')
      .addColumn('series_name', 'text')
      .addColumn('series_title_style', 'text')
      .addColumn('series_date_calendar', 'text')
      .addColumn('recorded_at', 'timestamptz', (c) => c.notNull())
      .addColumn('created_at', 'timestamptz', (c) => c.notNull())
      .addColumn('ready_at', 'timestamptz')
      .addColumn('duration_ms', 'integer')
      .addColumn('minutes', 'integer', (c) => c.notNull())
      .addColumn('attachment_minutes', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('audio_key', 'text', (c) => c.notNull())
      .addColumn('attachment_key', 'text')
      .addColumn('hold_ref', 'text', (c) => c.notNull())
      .addColumn('charged', 'boolean', (c) => c.notNull().defaultTo(false))
      .addColumn('job_id', 'text')
      .addColumn('failed_step', 'text')
      .addColumn('error_code', 'text')
      .addColumn('error_retryable', 'boolean')
      .addColumn('auto_retry_pending', 'boolean', (c) => c.notNull().defaultTo(false))
      .addColumn('naming_deadline', 'timestamptz')
      .addColumn('naming_open', 'boolean', (c) => c.notNull().defaultTo(false))
      .addColumn('ready_once', 'boolean', (c) => c.notNull().defaultTo(false))
      .addColumn('deleted_at', 'timestamptz')
      .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
      .execute();
    await sql`create index recording_ready_list on recording (account_id, created_at desc, id desc) where status = 'READY' and deleted_at is null`.execute(
      db,
    );
    await sql`create index recording_series_list on recording (series_id, created_at desc, id desc) where status = 'READY' and deleted_at is null`.execute(
      db,
    );
    await db.schema
      .createTable('idempotency_key')
      .addColumn('account_id', 'text', (c) => c.notNull())
      .addColumn('key', 'text', (c) => c.notNull())
      .addColumn('token_id', 'text')
      .addColumn('source', 'text', (c) => c.notNull())
      .addColumn('recording_id', 'text')
      .addColumn('state', 'text', (c) => c.notNull())
      .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
      .addPrimaryKeyConstraint('idempotency_key_pk', ['account_id', 'key'])
      .execute();
    await db.schema
      .createTable('transcript')
      .addColumn('recording_id', 'text', (c) => c.primaryKey())
      .addColumn('language', 'text', (c) => c.notNull())
      .addColumn('speakers', 'jsonb', (c) => c.notNull())
      .addColumn('segments', 'jsonb', (c) => c.notNull())
      .addColumn('stats', 'jsonb', (c) => c.notNull())
      .addColumn('version', 'integer', (c) => c.notNull().defaultTo(1))
      .execute();
    await db.schema
      .createTable('digest')
      .addColumn('recording_id', 'text', (c) => c.primaryKey())
      .addColumn('type', 'text', (c) => c.notNull())
      .addColumn('language', 'text', (c) => c.notNull())
      .addColumn('title', 'text')
      .addColumn('sections', 'jsonb', (c) => c.notNull())
      .addColumn('markdown', 'text', (c) => c.notNull())
      .addColumn('generated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
      .execute();
    await createOutbox(db);
  },
  async down(db: Kysely<any>) {
    await db.schema.dropTable('outbox').execute();
    for (const t of ['digest', 'transcript', 'idempotency_key', 'recording']) await db.schema.dropTable(t).execute();
  },
};
