import { Redis } from 'ioredis';
import { ensureDatabase } from '@mm/db';

/**
 * Tests run against their own Postgres database and their own Redis database (index 1, emptied
 * first), so that rate-limit counters of a running dev stack or a benchmark never leak in.
 */
export default async function globalSetup(): Promise<void> {
  process.env.DATABASE_URL ??= 'postgres://postgres@127.0.0.1:5432/meeting_memory_test';
  process.env.REDIS_URL ??= 'redis://127.0.0.1:6379/1';
  await ensureDatabase(process.env.DATABASE_URL);
  const redis = new Redis(process.env.REDIS_URL);
  await redis.flushdb();
  redis.disconnect();
}
