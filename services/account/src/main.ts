import { sql } from 'kysely';
import { connect } from 'nats';
import { createLogger, serve, runMain, PrincipalVerifier, principalKey, type Running } from '@mm/http';
import { migrateSchema, openDatabase } from '@mm/db';
import { loadConfig, type AccountConfig } from './config';
import { createApp } from './app';
import type { Database } from './db/schema';
import { WalletService } from './services/wallet.service';
import { serveWallet } from './bus/wallet.handlers';
import { migrations } from '../migrations';

/** Starts the account service: migrate, answer wallet requests over NATS, listen. */
export async function startAccount(config: AccountConfig): Promise<Running> {
  const logger = createLogger('account', config.logLevel);
  await migrateSchema(config.databaseUrl, 'account', migrations);
  const { db } = openDatabase<Database>({ url: config.databaseUrl, schema: 'account', poolSize: 20 });
  const nc = await connect({ servers: config.natsUrl, name: 'account', maxReconnectAttempts: -1 });
  const wallet = new WalletService(db, config.wallet);
  const subs = serveWallet(nc, wallet, logger);
  const app = createApp({
    config,
    wallet,
    verifier: new PrincipalVerifier(principalKey(config.internalJwtSecret)),
    logger,
    ready: async () => {
      await sql`select 1`.execute(db);
      return !nc.isClosed();
    },
  });
  return serve(app, config.port, logger, async () => {
    subs.forEach((s) => s.unsubscribe());
    await nc.drain();
    await db.destroy();
  });
}

if (require.main === module) runMain('account', () => startAccount(loadConfig()));
