import { sql, type Kysely, type Migration } from 'kysely';

export const createAccess: Migration = {
  async up(db: Kysely<any>) {
    await db.schema
      .createTable('account')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('display_name', 'text')
      .addColumn('email', 'text')
      .addColumn('developer_mode', 'boolean', (c) => c.notNull().defaultTo(false))
      .addColumn('approved', 'boolean', (c) => c.notNull().defaultTo(true))
      .addColumn('trial', 'boolean', (c) => c.notNull().defaultTo(false))
      .addColumn('api_write_enabled', 'boolean', (c) => c.notNull().defaultTo(true))
      .addColumn('api_query_enabled', 'boolean', (c) => c.notNull().defaultTo(true))
      .addColumn('feature_series', 'boolean', (c) => c.notNull().defaultTo(true))
      .addColumn('feature_ask', 'boolean', (c) => c.notNull().defaultTo(true))
      .addColumn('feature_video_upload', 'boolean', (c) => c.notNull().defaultTo(true))
      .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
      .execute();
    await db.schema
      .createTable('token')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('account_id', 'text', (c) => c.notNull().references('account.id'))
      .addColumn('name', 'text', (c) => c.notNull())
      .addColumn('scopes', sql`text[]`, (c) => c.notNull())
      .addColumn('hash', 'text', (c) => c.notNull().unique())
      .addColumn('daily_minute_cap', 'integer')
      .addColumn('expires_at', 'timestamptz')
      .addColumn('revoked_at', 'timestamptz')
      .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
      .execute();
    await db.schema.createIndex('token_account').on('token').column('account_id').execute();
    await db.schema
      .createTable('flag')
      .addColumn('key', 'text', (c) => c.primaryKey())
      .addColumn('value', 'jsonb', (c) => c.notNull())
      .execute();
  },
  async down(db: Kysely<any>) {
    await db.schema.dropTable('flag').execute();
    await db.schema.dropTable('token').execute();
    await db.schema.dropTable('account').execute();
  },
};
