import { sql } from 'kysely';
import { createLogger, serve, runMain, PrincipalVerifier, principalKey, type Running } from '@mm/http';
import { isMigrateCommand, openDatabase, requireSchema, runMigrate } from '@mm/db';
import { connectServiceBus } from '@mm/bus';
import { loadConfig, type SeriesConfig } from './config';
import { createApp } from './app';
import type { Database } from './db/schema';
import { SeriesService } from './services/series.service';
import { SeriesSharingService } from './services/series-sharing.service';
import { serveSeries } from './bus/series.handlers';
import { RecordingsStatsClient } from './bus/series-stats.client';
import { migrations } from '../migrations';

/** Starts the series service: check its schema is migrated, answer series requests over NATS, listen. */
export async function startSeries(config: SeriesConfig): Promise<Running> {
  const logger = createLogger('series', config.logLevel, config.logBufferBytes);
  const { db } = openDatabase<Database>({
    url: config.databaseUrl,
    schema: 'series',
    poolSize: config.databasePoolSize ?? 10,
  });
  await requireSchema(db, 'series', migrations);
  const { nc } = await connectServiceBus(config, 'series');
  const meetings = new RecordingsStatsClient(nc, logger);
  const series = new SeriesService(db, meetings);
  const sharing = new SeriesSharingService(db, config.internalJwtSecret, meetings);
  const subs = serveSeries(nc, series, sharing, logger);
  const app = createApp({
    config,
    series,
    sharing,
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

if (require.main === module) {
  if (isMigrateCommand()) runMigrate('series', 'series', migrations);
  else runMain('series', () => startSeries(loadConfig()));
}
