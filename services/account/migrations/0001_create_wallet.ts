import { sql, type Kysely, type Migration } from 'kysely';

export const createWallet: Migration = {
  async up(db: Kysely<any>) {
    // One row per account: the lock that serializes its money moves.
    await db.schema
      .createTable('wallet')
      .addColumn('account_id', 'text', (c) => c.primaryKey())
      .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
      .execute();
    await db.schema
      .createTable('ledger_entry')
      .addColumn('id', 'bigserial', (c) => c.primaryKey())
      .addColumn('account_id', 'text', (c) => c.notNull().references('wallet.account_id'))
      .addColumn('kind', 'text', (c) =>
        c.notNull().check(sql`kind in ('credit', 'hold', 'capture', 'release', 'ask_charge')`),
      )
      .addColumn('credit_kind', 'text', (c) => c.check(sql`credit_kind in ('trial', 'grant', 'purchase')`))
      .addColumn('minutes', 'integer', (c) => c.notNull().check(sql`minutes >= 0`))
      .addColumn('reference', 'text', (c) => c.notNull().unique())
      .addColumn('hold_reference', 'text')
      .addColumn('token_id', 'text')
      .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
      .execute();
    await db.schema
      .createIndex('ledger_account_time')
      .on('ledger_entry')
      .columns(['account_id', 'created_at'])
      .execute();
    await db.schema.createIndex('ledger_token_time').on('ledger_entry').columns(['token_id', 'created_at']).execute();
    await db.schema.createIndex('ledger_hold_reference').on('ledger_entry').column('hold_reference').execute();
  },
  async down(db: Kysely<any>) {
    await db.schema.dropTable('ledger_entry').execute();
    await db.schema.dropTable('wallet').execute();
  },
};
