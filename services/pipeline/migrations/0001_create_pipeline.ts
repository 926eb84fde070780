import { sql, type Kysely, type Migration } from 'kysely';
import { outboxMigration } from '@mm/bus';

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
    await outboxMigration.up(db);
  },
  async down(db: Kysely<any>) {
    await outboxMigration.down!(db);
    await db.schema.dropTable('timer').execute();
    await db.schema.dropTable('job').execute();
  },
};
