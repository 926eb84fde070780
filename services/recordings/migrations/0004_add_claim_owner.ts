import { sql, type Kysely, type Migration } from 'kysely';

/**
 * Each Idempotency-Key claim names the request that holds it, so a request whose stale claim was
 * taken over can neither complete nor drop the new owner's claim.
 */
export const addClaimOwner: Migration = {
  async up(db: Kysely<any>) {
    await db.schema.alterTable('idempotency_key').addColumn('claim_id', 'text').execute();
    await sql`update idempotency_key set claim_id = 'legacy:' || account_id || ':' || key where claim_id is null`.execute(
      db,
    );
    await db.schema
      .alterTable('idempotency_key')
      .alterColumn('claim_id', (c) => c.setNotNull())
      .execute();
  },
  async down(db: Kysely<any>) {
    await db.schema.alterTable('idempotency_key').dropColumn('claim_id').execute();
  },
};
