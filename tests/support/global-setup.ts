import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ensureDatabase } from '@mm/db';
import { startBroker, type Broker } from '../../deploy/nats-broker';

declare global {
  // The suite's broker, stopped by global-teardown (same process: jest --runInBand).
  var mmTestBroker: Broker | undefined;
}

/**
 * Tests run against their own Postgres database and their own Redis database (index 1). It is not
 * emptied: every stack's gateway prefixes its keys with the stack's namespace, so counters never
 * leak between stacks, and emptying it would reset the counters of a run going on beside this one.
 * And against a NATS broker of their own with authentication on: one user per service with the
 * permissions generated from the bus table (every stack's subjects under its own namespace).
 */
export default async function globalSetup(): Promise<void> {
  process.env.DATABASE_URL ??= 'postgres://postgres@127.0.0.1:5432/meeting_memory_test';
  process.env.REDIS_URL ??= 'redis://127.0.0.1:6379/1';
  await ensureDatabase(process.env.DATABASE_URL);
  const broker = await startBroker({
    dir: path.join(mkdtempSync(path.join(tmpdir(), 'mm-nats-')), 'broker'),
    namespace: '*.',
  });
  globalThis.mmTestBroker = broker;
  process.env.NATS_URL = broker.url;
  Object.assign(process.env, broker.env);
}
