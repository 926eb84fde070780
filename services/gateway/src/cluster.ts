/**
 * The gateway on every core it is given: a primary process forks GATEWAY_WORKERS workers, each a
 * whole gateway (startGateway) sharing the public port (node:cluster hands connections out round
 * robin). Workers behave like replicas: each has its own token cache and pools, and revocation
 * already reaches every replica (access epoch in Redis).
 *
 * The primary owns the operator's port: /readyz asks every worker (ready only when all answer
 * ready, 503 from the moment SIGTERM arrives), /metrics sums the workers' registries
 * (prom-client's AggregatorRegistry). It restarts a worker that dies, waiting longer after each
 * quick death, and on SIGTERM passes the signal on, so each worker drains as one process would,
 * and exits once they are all gone.
 */
import cluster, { type Worker } from 'node:cluster';
import express from 'express';
import {
  clusterMetrics,
  createLogger,
  healthBody,
  offerMetricsToPrimary,
  serve,
  writeNotFound,
  type Running,
} from '@mm/http';
import type { GatewayConfig } from './config';
import { nextRestartDelayMs } from './domain/worker-restarts';

/** A gateway process and its readiness (the cluster's primary asks its workers for it). */
export interface GatewayProcess {
  running: Running;
  ready: () => Promise<boolean>;
}

/** Messages between the primary and its workers (besides prom-client's own). */
type ReadyAsk = { type: 'mm:ready?'; id: number };
type ReadyAnswer = { type: 'mm:ready'; id: number; ready: boolean };

function isReadyAsk(m: unknown): m is ReadyAsk {
  return typeof m === 'object' && m !== null && (m as { type?: unknown }).type === 'mm:ready?';
}

function isReadyAnswer(m: unknown): m is ReadyAnswer {
  return typeof m === 'object' && m !== null && (m as { type?: unknown }).type === 'mm:ready';
}

/** A worker: the whole gateway without its own ops port, answering the primary's readiness asks. */
export async function startGatewayWorker(start: () => Promise<GatewayProcess>): Promise<Running> {
  const { running, ready: isReady } = await start();
  offerMetricsToPrimary('gateway');
  process.on('message', (m: unknown) => {
    if (!isReadyAsk(m)) return;
    void isReady().then(
      (ready) => process.send?.({ type: 'mm:ready', id: m.id, ready } satisfies ReadyAnswer),
      () => process.send?.({ type: 'mm:ready', id: m.id, ready: false } satisfies ReadyAnswer),
    );
  });
  return running;
}

/** The primary: forks, watches and stops the workers, serves the ops port. Resolves once it listens. */
export async function startGatewayPrimary(config: GatewayConfig, workers: number): Promise<Running> {
  const logger = createLogger('gateway', config.logLevel, config.logBufferBytes);
  let stopping = false;
  const quickDeaths = new Map<number, number>();
  const startedAt = new Map<number, number>();

  const fork = (slot: number): void => {
    const worker = cluster.fork({ GATEWAY_WORKER_SLOT: String(slot) });
    startedAt.set(slot, Date.now());
    worker.on('exit', (code, signal) => {
      if (stopping) return;
      const lived = Date.now() - (startedAt.get(slot) ?? 0);
      const deaths = lived < 60_000 ? (quickDeaths.get(slot) ?? 0) + 1 : 0;
      quickDeaths.set(slot, deaths);
      const delay = nextRestartDelayMs(deaths);
      logger.error(
        { slot, pid: worker.process.pid, code, signal, restartInMs: delay },
        'gateway worker died; restarting it',
      );
      setTimeout(() => {
        if (!stopping) fork(slot);
      }, delay).unref();
    });
  };
  for (let slot = 0; slot < workers; slot++) fork(slot);

  const metrics = clusterMetrics();
  let asks = 0;
  const allReady = async (): Promise<boolean> => {
    const live = Object.values(cluster.workers ?? {}).filter((w): w is Worker => w !== undefined && w.isConnected());
    if (stopping || live.length < workers) return false;
    const answers = await Promise.all(live.map((w) => askReady(w, ++asks)));
    return answers.every(Boolean);
  };

  const ops = express();
  ops.disable('x-powered-by');
  ops.get('/healthz', (_req, res) => {
    res.json(healthBody());
  });
  ops.get('/readyz', async (_req, res) => {
    const ok = await allReady().catch(() => false);
    res.status(ok ? 200 : 503).json({ status: ok ? 'ready' : 'not ready' });
  });
  ops.get('/metrics', async (_req, res) => {
    res.setHeader('Content-Type', metrics.contentType);
    res.send(await metrics.collect());
  });
  ops.use((_req, res) => writeNotFound(res));
  const opsServer = await serve(ops, { port: config.opsPort, host: config.host }, logger, async () => undefined);
  logger.info({ workers }, 'gateway primary started its workers');

  let closed: Promise<void> | null = null;
  return {
    port: config.port,
    opsPort: opsServer.port,
    draining: () => stopping,
    shutdownDelayMs: config.shutdownDelaySeconds * 1000,
    shutdownDrainMs: config.shutdownDrainSeconds * 1000,
    close: () => {
      closed ??= (async () => {
        stopping = true;
        const live = Object.values(cluster.workers ?? {}).filter((w): w is Worker => w !== undefined);
        await Promise.all(
          live.map(
            (w) =>
              new Promise<void>((resolve) => {
                if (w.isDead()) return resolve();
                w.once('exit', () => resolve());
                w.process.kill('SIGTERM');
              }),
          ),
        );
        await opsServer.close();
      })();
      return closed;
    },
  };
}

/** Asks one worker whether it is ready; no answer within a second is "no". */
function askReady(worker: Worker, id: number): Promise<boolean> {
  return new Promise((resolve) => {
    const timer = setTimeout(() => done(false), 1000);
    const onMessage = (m: unknown) => {
      if (isReadyAnswer(m) && m.id === id) done(m.ready);
    };
    function done(ready: boolean) {
      clearTimeout(timer);
      worker.off('message', onMessage);
      resolve(ready);
    }
    worker.on('message', onMessage);
    worker.send({ type: 'mm:ready?', id } satisfies ReadyAsk);
  });
}
