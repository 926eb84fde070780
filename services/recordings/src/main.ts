import { createLogger, isMultipartPost, serve, runMain, PrincipalVerifier, principalKey, type Running } from '@mm/http';
import { isMigrateCommand, openDatabase, requireSchema, runMigrate } from '@mm/db';
import { connectServiceBus, startOutboxRelay } from '@mm/bus';
import { openStore } from '@mm/store';
import { loadConfig, type RecordingsConfig } from './config';
import { createApp } from './app';
import type { Database } from './db/schema';
import { busCall } from './usecases/context';
import { databaseAnswers } from './db/transaction';
import { createUseCases } from './usecases';
import { consumePipelineResults } from './bus/pipeline-results.consumer';
import { serveSeriesStats } from './bus/series-stats.handler';
import { serveSeriesChanged, serveSeriesDeleted } from './bus/series-changed.handler';
import { serveAskContext } from './bus/ask-context.handler';
import { serveMeetingSummary } from './bus/meeting-summary.handler';
import { HoldReconciler } from './services/hold-reconciler';
import { TrashPurger } from './services/trash-purger';
import { UploadsInFlight } from './services/uploads-in-flight';
import { migrations } from '../migrations';

/** Starts the recordings service: check its schema is migrated, relay its outbox, apply pipeline results, answer series stats, listen. */
export async function startRecordings(config: RecordingsConfig): Promise<Running> {
  const logger = createLogger('recordings', config.logLevel, config.logBufferBytes);
  const { db } = openDatabase<Database>({
    url: config.databaseUrl,
    schema: 'recordings',
    poolSize: config.databasePoolSize ?? 20,
  });
  await requireSchema(db, 'recordings', migrations);
  const bus = await connectServiceBus(config, 'recordings');
  const store = await openStore(config.audioStore);
  const uploads = new UploadsInFlight();
  const useCases = createUseCases(
    { db, call: busCall(bus.nc), store, logger, uploads },
    {
      naming: config.naming,
      freeSilentMeetingsPerDay: config.freeSilentMeetingsPerDay,
      staleClaimSeconds: config.staleClaimSeconds,
      maxRecordingMinutes: config.uploadLimits.maxRecordingMinutes,
      tools: config.mediaTools,
      askCharsPerMinute: config.askCharsPerMinute,
    },
  );
  const relay = startOutboxRelay(db, bus, (err) => logger.error({ err }, 'outbox relay failed'));
  const stopConsumer = await consumePipelineResults(bus, useCases, logger);
  const seriesStats = serveSeriesStats(bus.nc, db, logger);
  const seriesChanged = serveSeriesChanged(bus.nc, db, logger);
  const seriesDeleted = serveSeriesDeleted(bus.nc, db, logger);
  const askContext = serveAskContext(bus.nc, db, useCases.ctx.repos, useCases.access, logger);
  const summary = serveMeetingSummary(bus.nc, db, useCases.ctx.repos, useCases.access, logger);
  const holds = new HoldReconciler({ db, nc: bus.nc, logger }, config.holdReconcile);
  holds.start();
  const trash = new TrashPurger({ db, nc: bus.nc, store, logger }, config.trash);
  trash.start();
  const app = createApp({
    config,
    useCases,
    verifier: new PrincipalVerifier(principalKey(config.internalJwtSecret)),
    logger,
    ready: async () => {
      await databaseAnswers(db);
      return !bus.nc.isClosed();
    },
  });
  // An upload's body is asked for (100 Continue) only once its claim and wallet checks pass.
  return serve(app, { ...config, deferContinue: isMultipartPost }, logger, async () => {
    // Uploads cut off by the drain let their Idempotency-Key claims go while the database is up.
    await uploads.drain(2000);
    seriesStats.unsubscribe();
    seriesChanged.unsubscribe();
    seriesDeleted.unsubscribe();
    askContext.forEach((s) => s.unsubscribe());
    summary.unsubscribe();
    await holds.stop();
    await trash.stop();
    await stopConsumer();
    await relay.stop();
    await bus.close();
    await db.destroy();
    await store.close();
  });
}

if (require.main === module) {
  if (isMigrateCommand()) runMigrate('recordings', 'recordings', migrations);
  else runMain('recordings', () => startRecordings(loadConfig()));
}
