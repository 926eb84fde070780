import { sql } from 'kysely';
import { createLogger, createServiceApp, finishApp, serve, runMain, type Running } from '@mm/http';
import { isMigrateCommand, openDatabase, requireSchema, runMigrate } from '@mm/db';
import { connectServiceBus, startOutboxRelay } from '@mm/bus';
import { openStore } from '@mm/store';
import { loadConfig, type PipelineConfig } from './config';
import type { Database } from './db/schema';
import { JobRunner } from './services/job-runner';
import { startTimerLoop } from './services/timers';
import { createEngines } from './services/create-engines';
import { startConsumers } from './bus/jobs.consumer';
import { migrations } from '../migrations';

/** Starts the pipeline: check its schema is migrated, run jobs and timers from JetStream, relay results, serve health. */
export async function startPipeline(config: PipelineConfig): Promise<Running> {
  const logger = createLogger('pipeline', config.logLevel, config.logBufferBytes);
  const { db } = openDatabase<Database>({
    url: config.databaseUrl,
    schema: 'pipeline',
    poolSize: config.databasePoolSize ?? 10,
  });
  await requireSchema(db, 'pipeline', migrations);
  const bus = await connectServiceBus(config, 'pipeline');
  const store = await openStore(config.audioStore);
  const runner = new JobRunner({
    db,
    store,
    engines: createEngines(config),
    logger,
    autoRetries: config.autoRetries,
    autoRetryDelaySeconds: config.autoRetryDelaySeconds,
  });
  const relay = startOutboxRelay(db, bus, (err) => logger.error({ err }, 'outbox relay failed'));
  const timers = startTimerLoop(db, logger);
  const stopConsumers = await startConsumers(bus, db, runner, logger, config);
  // No public routes: health, readiness and metrics only.
  const app = createServiceApp({
    name: 'pipeline',
    logger,
    ready: async () => {
      await sql`select 1`.execute(db);
      return !bus.nc.isClosed();
    },
  });
  return serve(finishApp(app, logger), config, logger, async () => {
    await stopConsumers();
    await timers.stop();
    await relay.stop();
    await bus.close();
    await db.destroy();
    await store.close();
  });
}

if (require.main === module) {
  if (isMigrateCommand()) runMigrate('pipeline', 'pipeline', migrations);
  else runMain('pipeline', () => startPipeline(loadConfig()));
}
