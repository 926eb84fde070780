import { sql } from 'kysely';
import { createLogger, serve, runMain, PrincipalVerifier, principalKey, type Running } from '@mm/http';
import { migrateSchema, openDatabase } from '@mm/db';
import { connectBus } from '@mm/bus';
import { loadConfig, type AccountConfig } from './config';
import { createApp } from './app';
import type { Database } from './db/schema';
import { WalletService } from './services/wallet.service';
import { SettingsService } from './services/settings.service';
import { MemoryService } from './services/memory.service';
import { serveWallet } from './bus/wallet.handlers';
import { serveAccount } from './bus/account.handlers';
import { migrations } from '../migrations';

/** Starts the account service: migrate, answer wallet, memory and settings requests over NATS, listen. */
export async function startAccount(config: AccountConfig): Promise<Running> {
  const logger = createLogger('account', config.logLevel);
  await migrateSchema(config.databaseUrl, 'account', migrations);
  const { db } = openDatabase<Database>({ url: config.databaseUrl, schema: 'account', poolSize: 20 });
  const { nc } = await connectBus(config.natsUrl, 'account', config.busNamespace);
  const wallet = new WalletService(db, config.wallet);
  const settings = new SettingsService(db);
  const memory = new MemoryService(db);
  const subs = [...serveWallet(nc, wallet, logger), ...serveAccount(nc, { memory, settings }, logger)];
  const app = createApp({
    config,
    wallet,
    settings,
    memory,
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
