import { sql } from 'kysely';
import { createLogger, serve, runMain, PrincipalVerifier, principalKey, type Running } from '@mm/http';
import { migrateSchema, openDatabase } from '@mm/db';
import { connectServiceBus } from '@mm/bus';
import { loadConfig, type SeriesConfig } from './config';
import { createApp } from './app';
import type { Database } from './db/schema';
import { SeriesService } from './services/series.service';
import { serveSeries } from './bus/series.handlers';
import { RecordingsStatsClient } from './bus/series-stats.client';
import { migrations } from '../migrations';

/** Starts the series service: migrate, answer series requests over NATS, listen. */
export async function startSeries(config: SeriesConfig): Promise<Running> {
  const logger = createLogger('series', config.logLevel, config.logBufferBytes);
  await migrateSchema(config.databaseUrl, 'series', migrations);
  const { db } = openDatabase<Database>({ url: config.databaseUrl, schema: 'series', poolSize: 10 });
  const { nc } = await connectServiceBus(config, 'series');
  const series = new SeriesService(db, new RecordingsStatsClient(nc, logger));
  const subs = serveSeries(nc, series, logger);
  const app = createApp({
    config,
    series,
    verifier: new PrincipalVerifier(principalKey(config.internalJwtSecret)),
    logger,
    ready: async () => {
      await sql`select 1`.execute(db);
      return !nc.isClosed();
    },
  });
  return serve(app, config, logger, async () => {
    subs.forEach((s) => s.unsubscribe());
    await nc.drain();
    await db.destroy();
  });
}

if (require.main === module) runMain('series', () => startSeries(loadConfig()));
