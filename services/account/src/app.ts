import type { RequestListener } from 'node:http';
import type { Logger } from 'pino';
import { createServiceApp, finishApp, PrincipalVerifier } from '@mm/http';
import type { AccountConfig } from './config';
import type { WalletService } from './services/wallet.service';
import type { SettingsService } from './services/settings.service';
import type { MemoryService } from './services/memory.service';
import { whoamiHandler } from './routes/whoami.handler';
import { accountRoutes } from './routes/account.routes';
import { keytermsRoutes } from './routes/keyterms.routes';
import { memoryRoutes } from './routes/memory.routes';
import { appSettingsRoutes, appWalletRoutes } from './routes/app-settings.routes';
import { summaryShareRoutes } from './routes/summary-share.routes';
import type { SummaryShareService } from './services/summary-share.service';

export interface AccountDeps {
  config: AccountConfig;
  wallet: WalletService;
  settings: SettingsService;
  memory: MemoryService;
  summaryShare: SummaryShareService;
  verifier: PrincipalVerifier;
  logger: Logger;
  ready: () => Promise<boolean>;
}

/** The account service (reached only through the gateway): whoami on plain node:http, the rest on express. */
export function createApp(deps: AccountDeps): RequestListener {
  const app = createServiceApp({ name: 'account', logger: deps.logger, ready: deps.ready, verifier: deps.verifier });
  app.use(accountRoutes({ wallet: deps.wallet, settings: deps.settings }));
  app.use(keytermsRoutes({ settings: deps.settings }));
  app.use(memoryRoutes({ memory: deps.memory }));
  app.use(appSettingsRoutes({ settings: deps.settings }));
  app.use(appWalletRoutes({ wallet: deps.wallet, db: deps.settings.repo.db, purchases: deps.config.appPurchases }));
  app.use(summaryShareRoutes({ summaryShare: deps.summaryShare }));
  finishApp(app, deps.logger);
  const whoami = whoamiHandler({
    wallet: deps.wallet,
    verifier: deps.verifier,
    uploadLimits: deps.config.uploadLimits,
    logger: deps.logger,
  });
  return (req, res) => {
    if (!whoami(req, res)) app(req, res);
  };
}
