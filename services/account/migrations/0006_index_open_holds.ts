import { sql, type Kysely, type Migration } from 'kysely';

/** The reconciler pages through old holds by (created_at, reference). */
export const indexOpenHolds: Migration = {
  async up(db: Kysely<any>) {
    await sql`create index ledger_open_hold on ledger_entry (created_at, reference) where kind = 'hold'`.execute(db);
  },
  async down(db: Kysely<any>) {
    await sql`drop index ledger_open_hold`.execute(db);
  },
};
