import type { Kysely, Migration } from 'kysely';

/** Memory (the owner's notes) can be switched off per account like the other features; on by default. */
export const addFeatureMemory: Migration = {
  async up(db: Kysely<any>) {
    await db.schema
      .alterTable('account')
      .addColumn('feature_memory', 'boolean', (c) => c.notNull().defaultTo(true))
      .execute();
  },
  async down(db: Kysely<any>) {
    await db.schema.alterTable('account').dropColumn('feature_memory').execute();
  },
};
