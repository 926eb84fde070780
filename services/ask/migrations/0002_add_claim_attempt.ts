import type { Kysely, Migration } from 'kysely';

/**
 * Which request holds an Ask's claim: a request that takes a stale claim over gets a new attempt,
 * and the one it replaced can then neither release nor answer it.
 */
export const addClaimAttempt: Migration = {
  async up(db: Kysely<any>) {
    await db.schema
      .alterTable('ask')
      .addColumn('attempt', 'text', (c) => c.notNull().defaultTo(''))
      .execute();
  },
  async down(db: Kysely<any>) {
    await db.schema.alterTable('ask').dropColumn('attempt').execute();
  },
};
