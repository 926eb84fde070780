import type { Express } from 'express';
import type { Logger } from 'pino';
import { createServiceApp, finishApp, PrincipalVerifier } from '@mm/http';
import type { EventsConfig } from './config';
import type { EventsService } from './services/events.service';
import { eventsRoutes } from './routes/events.routes';

export interface EventsDeps {
  config: EventsConfig;
  events: EventsService;
  verifier: PrincipalVerifier;
  logger: Logger;
  ready: () => Promise<boolean>;
}

/** The events service's express app (reached only through the gateway). */
export function createApp(deps: EventsDeps): Express {
  const app = createServiceApp({ name: 'events', logger: deps.logger, ready: deps.ready, verifier: deps.verifier });
  app.use(eventsRoutes({ events: deps.events }));
  return finishApp(app, deps.logger);
}
