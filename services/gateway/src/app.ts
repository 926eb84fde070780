import type { RequestListener } from 'node:http';
import { createServiceApp, finishApp, localSockets, principalKey, writeNotFound } from '@mm/http';
import { AccessRepository } from './db/access.repository';
import { AccessGate } from './services/access-gate';
import { AccessService } from './services/access.service';
import { PrincipalSigner } from './services/principals';
import { API_PREFIX, publicHandler } from './routes/public.handler';
import { adminRouter } from './routes/admin.routes';
import { AdminLimit } from './services/admin-limit';
import { ClientAddresses } from './services/client-addresses';
import { appDoor } from './app-door';
import type { GatewayDeps } from './deps';

/**
 * The gateway: the public API under /api/v1 on a plain node:http handler (its hot path), and
 * everything else (admin API, health, metrics, plain 404s) on express.
 */
export function createApp(deps: GatewayDeps): RequestListener {
  const { config, logger } = deps;
  const repo = new AccessRepository(deps.db);
  const signer = new PrincipalSigner(principalKey(config.internalJwtSecret));
  const gate = new AccessGate(repo, deps.redis, {
    rateLimitScale: config.rateLimitScale,
    ipRateLimit: config.ipRateLimit,
    junkRateLimit: config.junkRateLimit,
    logger,
  });
  const access = new AccessService({
    repo,
    nc: deps.bus.nc,
    redis: deps.redis,
    logger,
    tokenHashKey: config.tokenHashKey,
  });

  const addresses = new ClientAddresses(config.trustedProxies, logger, config.ipv6BudgetPrefix);
  const app = createServiceApp({ name: 'gateway', logger, ready: deps.ready, parseJson: false, opsRoutes: false });
  const api = publicHandler({
    gate,
    signer,
    tokenHashKey: config.tokenHashKey,
    publicBaseUrl: config.publicBaseUrl,
    serviceUrls: config.serviceUrls,
    serviceSockets: localSockets(config.localSocketDir),
    reads: deps.reads,
    addresses,
    logger,
  });
  app.use('/api', (_req, res) => writeNotFound(res));
  const limit = new AdminLimit(
    deps.redis,
    { requests: config.adminRateLimit * config.rateLimitScale, failures: config.adminAuthFailureLimit },
    logger,
  );
  const door = appDoor(deps, { access, signer });
  app.use(
    '/admin/v1',
    adminRouter({
      adminApiKey: config.adminApiKey,
      access,
      nc: deps.bus.nc,
      bus: deps.bus,
      db: deps.db,
      redis: deps.redis,
      logger,
      signer,
      serviceUrls: config.serviceUrls,
      limit,
      addresses,
      invites: door.signIn,
    }),
  );
  door.mount(app);
  finishApp(app, logger);
  return (req, res) => {
    const url = req.url ?? '';
    if (url.startsWith(`${API_PREFIX}/`) || url === API_PREFIX) api(req, res);
    else app(req, res);
  };
}
