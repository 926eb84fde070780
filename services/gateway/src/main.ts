import { Redis } from 'ioredis';
import { sql } from 'kysely';
import { createLogger, serve, runMain, type Running } from '@mm/http';
import { migrateSchema, openDatabase } from '@mm/db';
import { connectServiceBus } from '@mm/bus';
import { loadConfig, type GatewayConfig } from './config';
import { createApp } from './app';
import type { Database } from './db/schema';
import { AccessRepository } from './db/access.repository';
import { serveAccountContact } from './bus/account-contact.handlers';
import { migrations } from '../migrations';

/** Starts the gateway: migrate its schema, connect Redis and NATS, answer contact requests, listen. */
export async function startGateway(config: GatewayConfig): Promise<Running> {
  const logger = createLogger('gateway', config.logLevel);
  await migrateSchema(config.databaseUrl, 'access', migrations);
  const { db } = openDatabase<Database>({ url: config.databaseUrl, schema: 'access', poolSize: 20 });
  // No offline queue and a short timeout: while Redis is away requests go on without it (decisions.md).
  // Auto-pipelining sends the gate calls of requests that arrive in the same tick in one write.
  const redis = new Redis(config.redisUrl, { enableOfflineQueue: false, maxRetriesPerRequest: 1, commandTimeout: 500, enableAutoPipelining: true });
  redis.on('error', () => undefined);
  const bus = await connectServiceBus(config, 'gateway');
  const { nc } = bus;
  const subs = serveAccountContact(nc, new AccessRepository(db), logger);
  const app = createApp({
    config,
    db,
    redis,
    bus,
    logger,
    ready: async () => {
      await sql`select 1`.execute(db);
      return !nc.isClosed();
    },
  });
  return serve(app, config, logger, async () => {
    subs.forEach((s) => s.unsubscribe());
    await nc.drain();
    redis.disconnect();
    await db.destroy();
  });
}

if (require.main === module) runMain('gateway', () => startGateway(loadConfig()));
