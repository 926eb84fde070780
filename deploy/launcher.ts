/**
 * `pnpm start`: runs every service in the foreground, each as its own process, and stops them all
 * on Ctrl-C. Each service can also start alone: `pnpm --filter @mm/<name> start`.
 *
 * Unless NATS_URL is given (with NATS_PASSWORD_<SERVICE> for each service), it first starts a
 * NATS broker of its own with authentication on (`deploy/nats-broker.ts`: one user per service,
 * permissions from the bus table) on NATS_PORT (4223), JetStream and passwords under ./data/nats.
 *
 * Each service's migration step (`main.ts migrate`) runs first, all of them before any service
 * starts: a service's start only checks that its schema is current (libs/db migrate.ts).
 *
 * The gateway starts last, once every other service answers /readyz (database and broker
 * reached, its NATS handlers subscribed), so that when the public port first answers, a request
 * through it finds every service behind it serving.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import {
  DEV_DATABASE_URL,
  gatewayWorkersBesideServices,
  SERVICE_PORTS,
  socketDirFits,
  type ServiceId,
} from '../libs/platform/src/config';
import { analyzeDatabase, ensureDatabase, overLocalSocket } from '../libs/db/src';
import { startBroker, type Broker } from './nats-broker';
import { serviceProcess } from './service-process';
import { devInternalSecret } from './dev-secret';

const root = path.resolve(__dirname, '..');
const ORDER = ['account', 'recordings', 'pipeline', 'series', 'ask', 'events', 'web', 'gateway'];
const services = ORDER.filter((s) => existsSync(path.join(root, 'services', s, 'src', 'main.ts')));
const children = new Map<string, ChildProcess>();
let stopping = false;
let env: NodeJS.ProcessEnv = process.env;
let broker: Broker | null = null;

function start(name: string): void {
  // One node process per service.
  const run = serviceProcess(root, name, [], env);
  const child = spawn(run.command, run.args, { ...run.options, stdio: 'inherit' });
  children.set(name, child);
  child.on('exit', (code, signal) => {
    children.delete(name);
    if (stopping) {
      if (children.size === 0) void (broker?.stop() ?? Promise.resolve()).then(() => process.exit(0));
      return;
    }
    process.stderr.write(`launcher: ${name} exited (${signal ?? code}); restarting in 1 s\n`);
    setTimeout(() => start(name), 1000);
  });
}

function stop(): void {
  if (stopping) return;
  stopping = true;
  process.stderr.write('launcher: stopping every service\n');
  for (const child of children.values()) child.kill('SIGTERM');
  setTimeout(() => process.exit(0), 12_000).unref();
}

process.on('SIGINT', stop);
process.on('SIGTERM', stop);
async function main(): Promise<void> {
  // Principals are signed with a secret of this install, never the one written in the source.
  if (!process.env.INTERNAL_JWT_SECRET)
    env = { ...env, INTERNAL_JWT_SECRET: devInternalSecret(path.join(root, 'data')) };
  if (!process.env.NATS_URL) {
    broker = await startBroker({
      dir: path.join(root, 'data', 'nats'),
      port: Number(process.env.NATS_PORT ?? 4223),
      keepPasswords: true,
    });
    env = { ...env, NATS_URL: broker.url, ...broker.env };
    process.stderr.write(
      `launcher: NATS with authentication at ${broker.url} (users and passwords: data/nats/credentials.json)\n`,
    );
  }
  // Every service runs on this machine: the gateway reaches the others over Unix sockets, and
  // they reach Postgres over its own when it has one (docs/decisions.md, "Local hops over Unix
  // sockets"). LOCAL_SOCKET_DIR= (empty) keeps every hop on TCP.
  if (process.env.LOCAL_SOCKET_DIR === undefined) {
    const dir = path.join(root, 'data', 'sockets');
    if (socketDirFits(dir)) {
      mkdirSync(dir, { recursive: true, mode: 0o700 });
      env = { ...env, LOCAL_SOCKET_DIR: dir };
    } else
      process.stderr.write(`launcher: ${dir} is too long a path for Unix sockets; the gateway forwards over TCP\n`);
  }
  // The gateway shares these cores with the services it forwards to: half of them, unless set
  // (docs/decisions.md, "One gateway worker beside the services").
  if (process.env.GATEWAY_WORKERS === undefined)
    env = { ...env, GATEWAY_WORKERS: String(gatewayWorkersBesideServices()) };
  // On one machine its owner runs it for themself: the app's wallet sells packs, credited at once
  // (APP_PURCHASES=off leaves minutes to the admin API, as the images' default does).
  if (process.env.APP_PURCHASES === undefined) env = { ...env, APP_PURCHASES: 'direct' };
  // The migration step reads DATABASE_URL alone: the development database unless one is named.
  if (!process.env.DATABASE_URL) env = { ...env, DATABASE_URL: await overLocalSocket(DEV_DATABASE_URL) };
  await ensureDatabase(env.DATABASE_URL!);
  await migrateEach(services);
  if ((await analyzeDatabase(env.DATABASE_URL!, { unlessAutovacuum: true })).analyzed)
    process.stderr.write(
      "launcher: this Postgres runs without autovacuum: the planner's statistics were gathered once now (ANALYZE); turn autovacuum on for an install that keeps growing\n",
    );
  const internal = services.filter((s) => s !== 'gateway');
  process.stderr.write(`launcher: starting ${internal.join(', ')}\n`);
  internal.forEach(start);
  const late = await waitReady(internal, READY_WAIT_MS);
  if (stopping) return;
  if (late.length)
    process.stderr.write(
      `launcher: ${late.join(', ')} not ready after ${READY_WAIT_MS / 1000} s; starting the gateway anyway\n`,
    );
  if (services.includes('gateway')) {
    start('gateway');
    // Said once the public port answers, not when the gateway's process is spawned: the README
    // (and a script waiting for this line) may send its first request at once.
    const gatewayUrl = `http://127.0.0.1:${portOf('gateway')}`;
    const silent = await waitReady(['gateway'], READY_WAIT_MS, () => `${gatewayUrl}/healthz`);
    if (stopping) return;
    if (silent.length)
      process.stderr.write(`launcher: the gateway does not answer at ${gatewayUrl} after ${READY_WAIT_MS / 1000} s\n`);
    else process.stderr.write(`launcher: every service is up; the API is at ${gatewayUrl}\n`);
    process.stderr.write(
      `launcher: hops on this machine: gateway to services ${env.LOCAL_SOCKET_DIR ? `over Unix sockets in ${env.LOCAL_SOCKET_DIR}` : 'over TCP'}, Postgres ${new URL(env.DATABASE_URL!).searchParams.get('host') ? 'over its Unix socket' : 'over TCP'}; gateway workers: ${env.GATEWAY_WORKERS}\n`,
    );
    process.stderr.write(
      `launcher: the app is at http://127.0.0.1:${portOf('gateway')}/app/ (an invite link from the admin API signs a person in)\n`,
    );
    // Unset, the admin API answers 404 (ARCHITECTURE.md section 6): say so, or it looks broken.
    if (!process.env.ADMIN_API_KEY)
      process.stderr.write(
        'launcher: the admin API is off (ADMIN_API_KEY is not set); `bash deploy/quickstart.sh` or `ADMIN_API_KEY=dev-admin-key pnpm start` turns it on\n',
      );
  }
}

const READY_WAIT_MS = 60_000;

/** Runs every service's migration step (one process each, at once); a failed one stops the launcher. */
async function migrateEach(names: string[]): Promise<void> {
  const codes = await Promise.all(
    names.map(
      (name) =>
        new Promise<number | null>((resolve) => {
          const run = serviceProcess(root, name, ['migrate'], env);
          const child = spawn(run.command, run.args, { ...run.options, stdio: 'inherit' });
          child.on('exit', (code) => resolve(code));
        }),
    ),
  );
  const failed = names.filter((_, i) => codes[i] !== 0);
  if (failed.length) throw new Error(`the migration step of ${failed.join(', ')} failed`);
}

function portOf(name: ServiceId): number {
  const configured = Number(
    process.env[`${name.toUpperCase()}_PORT`] ?? (name === 'gateway' ? process.env.PORT : undefined),
  );
  return Number.isInteger(configured) && configured > 0 ? configured : SERVICE_PORTS[name];
}

function isServiceId(name: string): name is ServiceId {
  return Object.hasOwn(SERVICE_PORTS, name);
}

/** Polls each service's /readyz (or `urlOf`) until all answer 200 or the time is up; returns those still not ready. */
async function waitReady(
  names: string[],
  timeoutMs: number,
  urlOf = (name: ServiceId) => `http://127.0.0.1:${portOf(name)}/readyz`,
): Promise<string[]> {
  const deadline = Date.now() + timeoutMs;
  let pending = names.filter(isServiceId);
  while (pending.length && Date.now() < deadline && !stopping) {
    const answers = await Promise.all(
      pending.map((name) =>
        fetch(urlOf(name), { signal: AbortSignal.timeout(1000) }).then(
          (r) => r.ok,
          () => false,
        ),
      ),
    );
    pending = pending.filter((_, i) => !answers[i]);
    if (pending.length) await new Promise((resolve) => setTimeout(resolve, 250));
  }
  return pending;
}

main().catch((err) => {
  process.stderr.write(`launcher: ${String(err)}\n`);
  process.exit(1);
});
