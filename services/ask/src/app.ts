import type { Express } from 'express';
import type { Logger } from 'pino';
import { createServiceApp, finishApp, PrincipalVerifier } from '@mm/http';
import type { AskConfig } from './config';
import type { AskService } from './services/ask.service';
import { askRoutes } from './routes/ask.routes';

export interface AskDeps {
  config: AskConfig;
  asks: AskService;
  verifier: PrincipalVerifier;
  logger: Logger;
  ready: () => Promise<boolean>;
}

/** The ask service's express app (reached only through the gateway). */
export function createApp(deps: AskDeps): Express {
  const app = createServiceApp({ name: 'ask', logger: deps.logger, ready: deps.ready, verifier: deps.verifier });
  app.use(askRoutes({ asks: deps.asks }));
  return finishApp(app, deps.logger);
}
