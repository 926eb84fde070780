import type { Express } from 'express';
import type { Logger } from 'pino';
import { createServiceApp, finishApp, PrincipalVerifier } from '@mm/http';
import type { AccountConfig } from './config';
import type { WalletService } from './services/wallet.service';
import type { SettingsService } from './services/settings.service';
import type { MemoryService } from './services/memory.service';
import { whoamiRoutes } from './routes/whoami.routes';
import { accountRoutes } from './routes/account.routes';
import { keytermsRoutes } from './routes/keyterms.routes';
import { memoryRoutes } from './routes/memory.routes';

export interface AccountDeps {
  config: AccountConfig;
  wallet: WalletService;
  settings: SettingsService;
  memory: MemoryService;
  verifier: PrincipalVerifier;
  logger: Logger;
  ready: () => Promise<boolean>;
}

/** The account service's express app (reached only through the gateway). */
export function createApp(deps: AccountDeps): Express {
  const app = createServiceApp({ name: 'account', logger: deps.logger, ready: deps.ready, verifier: deps.verifier });
  app.use(whoamiRoutes({ wallet: deps.wallet, uploadLimits: deps.config.uploadLimits }));
  app.use(accountRoutes({ wallet: deps.wallet, settings: deps.settings }));
  app.use(keytermsRoutes({ settings: deps.settings }));
  app.use(memoryRoutes({ memory: deps.memory }));
  return finishApp(app, deps.logger);
}
