import { ensureDatabase } from '@mm/db';

/**
 * Tests run against their own Postgres database and their own Redis database (index 1). It is not
 * emptied: every stack's gateway prefixes its keys with the stack's namespace, so counters never
 * leak between stacks, and emptying it would reset the counters of a run going on beside this one.
 */
export default async function globalSetup(): Promise<void> {
  process.env.DATABASE_URL ??= 'postgres://postgres@127.0.0.1:5432/meeting_memory_test';
  process.env.REDIS_URL ??= 'redis://127.0.0.1:6379/1';
  await ensureDatabase(process.env.DATABASE_URL);
}
