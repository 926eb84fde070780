import { sql } from 'kysely';
import { createLogger, serve, runMain, PrincipalVerifier, principalKey, type Running } from '@mm/http';
import { isMigrateCommand, openDatabase, requireSchema, runMigrate } from '@mm/db';
import { connectServiceBus, serve as serveBus } from '@mm/bus';
import { BUS } from '@mm/contract';
import { loadConfig, type AskConfig } from './config';
import { createApp } from './app';
import type { Database } from './db/schema';
import { AskRepository } from './db/ask.repository';
import { ContextLoader } from './services/context';
import { AskService } from './services/ask.service';
import { ExtractiveAskEngine } from './engines/extractive.engine';
import { OpenAiAskEngine } from './engines/openai.engine';
import { migrations } from '../migrations';

/** Starts the ask service: check its schema is migrated, then answer quotes and questions from what recordings holds. */
export async function startAsk(config: AskConfig): Promise<Running> {
  const logger = createLogger('ask', config.logLevel, config.logBufferBytes);
  const { db } = openDatabase<Database>({
    url: config.databaseUrl,
    schema: 'ask',
    poolSize: config.databasePoolSize ?? 10,
  });
  await requireSchema(db, 'ask', migrations);
  const bus = await connectServiceBus(config, 'ask');
  const engine =
    config.llmEngine === 'openai'
      ? new OpenAiAskEngine({
          baseUrl: config.openai.baseUrl,
          apiKey: config.openai.apiKey,
          model: config.openai.llmModel,
        })
      : new ExtractiveAskEngine();
  const repo = new AskRepository(db);
  // The trash's purge (recordings) removes a meeting's questions and answers with it.
  const forget = serveBus(
    bus.nc,
    BUS.askForgetMeeting,
    async (p) => {
      const deleted = await repo.forgetMeeting(p.accountId, p.recordingId);
      logger.info({ recordingId: p.recordingId, deleted }, "forgot a purged meeting's questions");
      return { deleted };
    },
    (err) => logger.error({ err }, 'askForgetMeeting failed'),
  );
  const asks = new AskService({
    repo,
    context: new ContextLoader(bus.nc, config.charsPerMinute),
    engine,
    nc: bus.nc,
    logger,
  });
  const app = createApp({
    config,
    asks,
    verifier: new PrincipalVerifier(principalKey(config.internalJwtSecret)),
    logger,
    ready: async () => {
      await sql`select 1`.execute(db);
      return !bus.nc.isClosed();
    },
  });
  return serve(app, config, logger, async () => {
    forget.unsubscribe();
    await bus.close();
    await db.destroy();
  });
}

if (require.main === module) {
  if (isMigrateCommand()) runMigrate('ask', 'ask', migrations);
  else runMain('ask', () => startAsk(loadConfig()));
}
