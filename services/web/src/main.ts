import { sql } from 'kysely';
import { createLogger, serve, runMain, PrincipalVerifier, principalKey, type Running } from '@mm/http';
import { isMigrateCommand, openDatabase, requireSchema, runMigrate } from '@mm/db';
import { loadConfig, type WebConfig } from './config';
import { createApp } from './app';
import { buildAssets } from './assets';
import type { Database } from './db/schema';
import { migrations } from '../migrations';

/**
 * Starts the app: checks its schema (share links, its only data) is migrated, builds its script
 * and stylesheet, listens.
 */
export async function startWeb(config: WebConfig): Promise<Running> {
  const logger = createLogger('web', config.logLevel, config.logBufferBytes);
  const { db } = openDatabase<Database>({
    url: config.databaseUrl,
    schema: 'web',
    poolSize: config.databasePoolSize ?? 5,
  });
  await requireSchema(db, 'web', migrations);
  const assets = await buildAssets();
  const app = createApp({
    config,
    verifier: new PrincipalVerifier(principalKey(config.internalJwtSecret)),
    db,
    assets,
    logger,
    ready: async () => {
      await sql`select 1`.execute(db);
      return true;
    },
  });
  return serve(app, config, logger, async () => {
    await db.destroy();
  });
}

if (require.main === module) {
  if (isMigrateCommand()) runMigrate('web', 'web', migrations);
  else runMain('web', () => startWeb(loadConfig()));
}
