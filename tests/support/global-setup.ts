import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Redis } from 'ioredis';
import { ensureDatabase } from '@mm/db';
import { startBroker, type Broker } from '../../deploy/nats-broker';

declare global {
  // The suite's broker, stopped by global-teardown (same process: jest --runInBand).
  var mmTestBroker: Broker | undefined;
}

/**
 * Tests run against their own Postgres database and their own Redis database (index 1, emptied
 * first), so that rate-limit counters of a running dev stack or a benchmark never leak in; and
 * against a NATS broker of their own with authentication on: one user per service with the
 * permissions generated from the bus table (every stack's subjects under its own namespace).
 */
export default async function globalSetup(): Promise<void> {
  process.env.DATABASE_URL ??= 'postgres://postgres@127.0.0.1:5432/meeting_memory_test';
  process.env.REDIS_URL ??= 'redis://127.0.0.1:6379/1';
  await ensureDatabase(process.env.DATABASE_URL);
  const redis = new Redis(process.env.REDIS_URL);
  await redis.flushdb();
  redis.disconnect();
  const broker = await startBroker({ dir: path.join(mkdtempSync(path.join(tmpdir(), 'mm-nats-')), 'broker'), namespace: '*.' });
  globalThis.mmTestBroker = broker;
  process.env.NATS_URL = broker.url;
  Object.assign(process.env, broker.env);
}
