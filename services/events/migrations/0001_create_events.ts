import { sql, type Kysely, type Migration } from 'kysely';

export const createEvents: Migration = {
  async up(db: Kysely<any>) {
    await db.schema
      .createTable('event')
      // The event id from the recordings outbox: a redelivered event is stored once.
      .addColumn('id', 'text', (c) => c.primaryKey())
      // Feed order. Inserts are serialized (see EventRepository.insert), so seq order is commit order.
      .addColumn('seq', 'bigserial', (c) => c.notNull().unique())
      .addColumn('account_id', 'text', (c) => c.notNull())
      .addColumn('token_id', 'text')
      .addColumn('recording_id', 'text', (c) => c.notNull())
      .addColumn('series_id', 'text')
      .addColumn('type', 'text', (c) => c.notNull())
      .addColumn('occurred_at', 'timestamptz', (c) => c.notNull())
      .addColumn('data', 'jsonb', (c) => c.notNull())
      .addColumn('stored_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
      .execute();
    await db.schema.createIndex('event_account_seq').on('event').columns(['account_id', 'seq']).execute();
    await db.schema
      .createIndex('event_account_token_seq')
      .on('event')
      .columns(['account_id', 'token_id', 'seq'])
      .execute();
    await db.schema.createIndex('event_occurred_at').on('event').column('occurred_at').execute();
  },
  async down(db: Kysely<any>) {
    await db.schema.dropTable('event').execute();
  },
};
