import type { Kysely, Migration } from 'kysely';

/**
 * A forced hold (a retried or restored meeting held again) is not a new meeting: it does not count
 * toward the service's daily meeting limit.
 */
export const markForcedHolds: Migration = {
  async up(db: Kysely<any>) {
    await db.schema
      .alterTable('ledger_entry')
      .addColumn('forced', 'boolean', (c) => c.notNull().defaultTo(false))
      .execute();
  },
  async down(db: Kysely<any>) {
    await db.schema.alterTable('ledger_entry').dropColumn('forced').execute();
  },
};
