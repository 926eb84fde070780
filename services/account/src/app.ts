import type { Express } from 'express';
import type { Logger } from 'pino';
import { createServiceApp, finishApp, PrincipalVerifier } from '@mm/http';
import type { AccountConfig } from './config';
import type { WalletService } from './services/wallet.service';
import { whoamiRoutes } from './routes/whoami.routes';

export interface AccountDeps {
  config: AccountConfig;
  wallet: WalletService;
  verifier: PrincipalVerifier;
  logger: Logger;
  ready: () => Promise<boolean>;
}

/** The account service's express app (reached only through the gateway). */
export function createApp(deps: AccountDeps): Express {
  const app = createServiceApp({ name: 'account', logger: deps.logger, ready: deps.ready, verifier: deps.verifier });
  app.use(whoamiRoutes({ wallet: deps.wallet, uploadLimits: deps.config.uploadLimits }));
  return finishApp(app, deps.logger);
}
