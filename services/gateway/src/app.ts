import type { Express } from 'express';
import type { NatsConnection } from 'nats';
import type { Redis } from 'ioredis';
import type { Kysely } from 'kysely';
import type { Logger } from 'pino';
import { createServiceApp, finishApp, principalKey } from '@mm/http';
import type { GatewayConfig } from './config';
import type { Database } from './db/schema';
import { AccessRepository } from './db/access.repository';
import { AccessGate } from './services/access-gate';
import { AccessService } from './services/access.service';
import { PrincipalSigner } from './services/principals';
import { publicRouter } from './routes/public.routes';
import { adminRouter } from './routes/admin.routes';

export interface GatewayDeps {
  config: GatewayConfig;
  db: Kysely<Database>;
  redis: Redis;
  nc: NatsConnection;
  logger: Logger;
  ready: () => Promise<boolean>;
}

/** The gateway's express app: the public API under /api/v1 and the admin API under /admin/v1. */
export function createApp(deps: GatewayDeps): Express {
  const { config, logger } = deps;
  const repo = new AccessRepository(deps.db);
  const signer = new PrincipalSigner(principalKey(config.internalJwtSecret));
  const gate = new AccessGate(repo, deps.redis, { rateLimitScale: config.rateLimitScale, ipRateLimit: config.ipRateLimit, logger });
  const access = new AccessService({ repo, nc: deps.nc, redis: deps.redis, logger, tokenHashKey: config.tokenHashKey });

  const app = createServiceApp({ name: 'gateway', logger, ready: deps.ready, parseJson: false });
  app.use('/api/v1', publicRouter({ gate, signer, tokenHashKey: config.tokenHashKey, publicBaseUrl: config.publicBaseUrl, serviceUrls: config.serviceUrls, logger }));
  app.use('/api', (_req, res) => {
    res.status(404).type('text/plain').send('Not Found');
  });
  app.use('/admin/v1', adminRouter({ adminApiKey: config.adminApiKey, access, nc: deps.nc, redis: deps.redis, logger, signer, serviceUrls: config.serviceUrls }));
  return finishApp(app, logger);
}
