import { sql } from 'kysely';
import { createLogger, serve, runMain, PrincipalVerifier, principalKey, type Running } from '@mm/http';
import { isMigrateCommand, openDatabase, requireSchema, runMigrate } from '@mm/db';
import { connectServiceBus } from '@mm/bus';
import { loadConfig, type AccountConfig } from './config';
import { createApp } from './app';
import type { Database } from './db/schema';
import { WalletService } from './services/wallet.service';
import { WalletSummaryCache } from './services/wallet-summary.cache';
import { WalletChangesListener } from './db/wallet-changes.listener';
import { SettingsService } from './services/settings.service';
import { MemoryService } from './services/memory.service';
import { serveWallet } from './bus/wallet.handlers';
import { serveAccount } from './bus/account.handlers';
import { consumeDigestCreated } from './bus/digest-created.consumer';
import { SummaryEmailService } from './services/summary-email.service';
import { SummaryShareService } from './services/summary-share.service';
import { createSmtpMailer } from './mail/smtp.mailer';
import { migrations } from '../migrations';

/**
 * Starts the account service: check its schema is migrated, answer wallet, memory and settings requests over NATS,
 * learn from and email each first digest, listen.
 */
export async function startAccount(config: AccountConfig): Promise<Running> {
  const logger = createLogger('account', config.logLevel, config.logBufferBytes);
  const { db, pool } = openDatabase<Database>({
    url: config.databaseUrl,
    schema: 'account',
    poolSize: config.databasePoolSize ?? 20,
  });
  await requireSchema(db, 'account', migrations);
  const bus = await connectServiceBus(config, 'account');
  const { nc } = bus;
  const summaries = new WalletSummaryCache();
  const walletChanges = new WalletChangesListener(config.listenDatabaseUrl ?? config.databaseUrl, summaries, logger);
  await walletChanges.start();
  const wallet = new WalletService(db, config.wallet, pool, summaries);
  const settings = new SettingsService(db);
  const memory = new MemoryService(db);
  const subs = [...serveWallet(nc, wallet, logger), ...serveAccount(nc, { memory, settings }, logger)];
  const mailer = createSmtpMailer(config.summaryEmail);
  if (!mailer) logger.warn('SMTP_URL is not set: summary emails are not sent');
  if (!config.summaryEmail.pdfFonts.regular)
    logger.warn('no PDF font found: digest PDFs use Helvetica, and Persian digests are emailed without a PDF');
  const summaryEmail = new SummaryEmailService({
    db,
    nc,
    mailer,
    fonts: config.summaryEmail.pdfFonts,
    appUrl: config.appUrl,
    logger,
  });
  const summaryShare = new SummaryShareService({
    db,
    nc,
    mailer,
    fonts: config.summaryEmail.pdfFonts,
    appUrl: config.appUrl,
    logger,
  });
  const stopDigests = await consumeDigestCreated(bus, { memory, summaryEmail }, logger);
  const app = createApp({
    config,
    wallet,
    settings,
    memory,
    summaryShare,
    verifier: new PrincipalVerifier(principalKey(config.internalJwtSecret)),
    logger,
    ready: async () => {
      await sql`select 1`.execute(db);
      return !nc.isClosed();
    },
  });
  return serve(app, config, logger, async () => {
    subs.forEach((s) => s.unsubscribe());
    await stopDigests();
    mailer?.close();
    await walletChanges.stop();
    await nc.drain();
    await db.destroy();
  });
}

if (require.main === module) {
  if (isMigrateCommand()) runMigrate('account', 'account', migrations);
  else runMain('account', () => startAccount(loadConfig()));
}
