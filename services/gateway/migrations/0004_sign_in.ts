import { sql, type Kysely, type Migration } from 'kysely';

/**
 * The app's sign-in (the gateway owns authentication): a password per account, single-use links
 * (invites and password resets) and sessions. Links and sessions are stored only as keyed hashes.
 * None of these tables bumps the access version: they never change what a token may do.
 */
export const addSignIn: Migration = {
  async up(db: Kysely<any>) {
    await db.schema
      .createTable('credential')
      .addColumn('account_id', 'text', (c) => c.primaryKey().references('account.id'))
      .addColumn('email', 'text', (c) => c.notNull())
      .addColumn('password_hash', 'text', (c) => c.notNull())
      .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
      .execute();
    await sql`create unique index credential_email on credential (lower(email))`.execute(db);
    await db.schema
      .createTable('sign_in_link')
      .addColumn('hash', 'text', (c) => c.primaryKey())
      .addColumn('account_id', 'text', (c) => c.notNull().references('account.id'))
      .addColumn('purpose', 'text', (c) => c.notNull().check(sql`purpose in ('invite', 'reset')`))
      .addColumn('expires_at', 'timestamptz', (c) => c.notNull())
      .addColumn('used_at', 'timestamptz')
      .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
      .execute();
    await db.schema
      .createTable('session')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('hash', 'text', (c) => c.notNull().unique())
      .addColumn('account_id', 'text', (c) => c.notNull().references('account.id'))
      .addColumn('csrf_token', 'text', (c) => c.notNull())
      .addColumn('device', 'text', (c) => c.notNull())
      .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
      .addColumn('last_seen_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
      .addColumn('expires_at', 'timestamptz', (c) => c.notNull())
      .addColumn('ended_at', 'timestamptz')
      .execute();
    await db.schema.createIndex('session_account').on('session').column('account_id').execute();
  },
  async down(db: Kysely<any>) {
    await db.schema.dropTable('session').execute();
    await db.schema.dropTable('sign_in_link').execute();
    await db.schema.dropTable('credential').execute();
  },
};
