import { sql } from 'kysely';
import { createLogger, serve, runMain, PrincipalVerifier, principalKey, type Running } from '@mm/http';
import { isMigrateCommand, openDatabase, requireSchema, runMigrate } from '@mm/db';
import { connectServiceBus } from '@mm/bus';
import { loadConfig, type EventsConfig } from './config';
import { createApp } from './app';
import type { Database } from './db/schema';
import { EventRepository } from './db/event.repository';
import { CursorCodec } from './domain/feed-cursor';
import { EventsService } from './services/events.service';
import { startRetention } from './services/retention.service';
import { consumeRecordingEvents } from './bus/recording-events.consumer';
import { migrations } from '../migrations';

/** Starts the events service: check its schema is migrated, copy meeting events from the bus, serve the feed, prune. */
export async function startEvents(config: EventsConfig): Promise<Running> {
  const logger = createLogger('events', config.logLevel, config.logBufferBytes);
  const { db } = openDatabase<Database>({
    url: config.databaseUrl,
    schema: 'events',
    poolSize: config.databasePoolSize ?? 10,
  });
  await requireSchema(db, 'events', migrations);
  const bus = await connectServiceBus(config, 'events');
  const repo = new EventRepository(db);
  const stopConsumer = await consumeRecordingEvents(bus, repo, logger, { orderWaitMs: config.orderWaitSeconds * 1000 });
  const stopRetention = startRetention(repo, logger);
  const app = createApp({
    config,
    events: new EventsService(repo, new CursorCodec(config.internalJwtSecret)),
    verifier: new PrincipalVerifier(principalKey(config.internalJwtSecret)),
    logger,
    ready: async () => {
      await sql`select 1`.execute(db);
      return !bus.nc.isClosed();
    },
  });
  return serve(app, config, logger, async () => {
    await stopRetention();
    await stopConsumer();
    await bus.close();
    await db.destroy();
  });
}

if (require.main === module) {
  if (isMigrateCommand()) runMigrate('events', 'events', migrations);
  else runMain('events', () => startEvents(loadConfig()));
}
