import cluster from 'node:cluster';
import type { IncomingMessage } from 'node:http';
import { Redis } from 'ioredis';
import { sql } from 'kysely';
import { createLogger, createOpsApp, isMultipartPost, serve, runMain, type Running } from '@mm/http';
import { isMigrateCommand, openDatabase, requireSchema, requireSchemaAt, runMigrate } from '@mm/db';
import { connectServiceBus, isBusSetupCommand, runBusSetup } from '@mm/bus';
import { loadConfig, type GatewayConfig } from './config';
import { createApp } from './app';
import { ReadPipelines } from './services/proxy';
import { API_PREFIX } from './routes/public.handler';
import type { Database } from './db/schema';
import { AccessRepository } from './db/access.repository';
import { serveAccountContact } from './bus/account-contact.handlers';
import { migrations } from '../migrations';
import { startGatewayPrimary, startGatewayWorker, type GatewayProcess } from './cluster';
import { smtpSender } from './sign-in.config';

/** Starts the gateway in this process, its ops port (/readyz, /metrics) included. */
export async function startGateway(config: GatewayConfig): Promise<Running> {
  return (await startGatewayProcess(config, { opsPort: true })).running;
}

/**
 * Checks the gateway's schema is migrated, connects Redis and NATS, answers contact requests, listens.
 * `opsPort: false` for a cluster worker: the primary serves the ops port for all of them.
 */
export async function startGatewayProcess(config: GatewayConfig, opts: { opsPort: boolean }): Promise<GatewayProcess> {
  const logger = createLogger('gateway', config.logLevel, config.logBufferBytes);
  const { db } = openDatabase<Database>({
    url: config.databaseUrl,
    schema: 'access',
    poolSize: config.databasePoolSize ?? 20,
  });
  await requireSchema(db, 'access', migrations);
  // No offline queue and a short timeout: while Redis is away requests go on without it (decisions.md).
  // Auto-pipelining sends the gate calls of requests that arrive in the same tick in one write.
  // Keys carry the bus namespace: stacks sharing one Redis (tests, a bench beside a dev stack)
  // never share a rate counter or an access epoch.
  const redis = new Redis(config.redisUrl, {
    keyPrefix: config.busNamespace,
    enableOfflineQueue: false,
    maxRetriesPerRequest: 1,
    commandTimeout: 500,
    enableAutoPipelining: true,
  });
  redis.on('error', () => undefined);
  const bus = await connectServiceBus(config, 'gateway');
  const { nc } = bus;
  const subs = serveAccountContact(nc, new AccessRepository(db), logger);
  let running: Running | undefined;
  const ready = async () => {
    if (running?.draining()) return false;
    await sql`select 1`.execute(db);
    return !nc.isClosed();
  };
  const reads = new ReadPipelines({ pipelining: config.upstreamPipelining, connections: config.upstreamConnections });
  const mail = smtpSender(config);
  const app = createApp({ config, db, redis, bus, logger, reads, ready, sendMail: mail.send });
  // /readyz and /metrics are the operator's, on their own port; a gateway on a free port (tests)
  // puts them on a free port too.
  const ops = opts.opsPort
    ? await serve(
        createOpsApp({ name: 'gateway', ready }),
        { port: config.port === 0 ? 0 : config.opsPort, host: config.host },
        logger,
        async () => undefined,
      )
    : null;
  // A public upload's 100 Continue is relayed from the owning service (proxy.ts), never sent before.
  const deferContinue = (req: IncomingMessage) => isMultipartPost(req) && (req.url ?? '').startsWith(`${API_PREFIX}/`);
  running = await serve(app, { ...config, deferContinue }, logger, async () => {
    await ops?.close();
    await reads.close();
    mail.close();
    subs.forEach((s) => s.unsubscribe());
    await nc.drain();
    redis.disconnect();
    await db.destroy();
  });
  return { running: { ...running, opsPort: ops?.port }, ready };
}

/** One process (GATEWAY_WORKERS=1), or a primary and its workers (this same file, forked). */
function startFromEnvironment(): Promise<Running> {
  const config = loadConfig();
  if (cluster.isWorker) return startGatewayWorker(() => startGatewayProcess(config, { opsPort: false }));
  // The primary refuses a schema behind the build before forking workers that would refuse it one by one.
  if (config.workers > 1)
    return requireSchemaAt(config.databaseUrl, 'access', migrations).then(() =>
      startGatewayPrimary(config, config.workers),
    );
  return startGateway(config);
}

if (require.main === module) {
  if (isMigrateCommand()) runMigrate('gateway', 'access', migrations);
  // The bus setup step (the Kubernetes Job and compose's one-shot bus-setup run this image so).
  else if (isBusSetupCommand()) runBusSetup();
  else runMain('gateway', startFromEnvironment);
}
