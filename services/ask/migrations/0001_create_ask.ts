import { sql, type Kysely, type Migration } from 'kysely';

export const createAsk: Migration = {
  async up(db: Kysely<any>) {
    // One row per Ask. A row is claimed ('answering') before the work and kept only when the Ask
    // succeeded ('answered'): an error deletes it, so the same key runs for real next time.
    await db.schema
      .createTable('ask')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('account_id', 'text', (c) => c.notNull())
      .addColumn('token_id', 'text')
      .addColumn('target_kind', 'text', (c) => c.notNull().check(sql`target_kind in ('recording', 'series')`))
      .addColumn('target_id', 'text', (c) => c.notNull())
      .addColumn('idempotency_key', 'text')
      .addColumn('state', 'text', (c) => c.notNull().check(sql`state in ('answering', 'answered')`))
      .addColumn('question', 'text', (c) => c.notNull())
      .addColumn('answer', 'jsonb')
      .addColumn('minutes', 'integer', (c) => c.notNull())
      .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
      .addColumn('answered_at', 'timestamptz')
      .execute();
    // An Ask's key belongs to one account's meeting or series (another meeting may reuse it).
    await sql`create unique index ask_idempotency on ask (account_id, target_kind, target_id, idempotency_key) where idempotency_key is not null`.execute(
      db,
    );
    // The latest answered questions on a meeting or series, read as context for the next one.
    await db.schema
      .createIndex('ask_history')
      .on('ask')
      .columns(['account_id', 'target_kind', 'target_id', 'created_at'])
      .execute();
  },
  async down(db: Kysely<any>) {
    await db.schema.dropTable('ask').execute();
  },
};
