/**
 * Starts services as real processes, the way `pnpm start` does (deploy/launcher.ts): each one is
 * `node_modules/.bin/tsx services/<name>/src/main.ts` with its configuration in the environment.
 * Ports are the bench's own (18080-18086 by default) so a running development stack is untouched,
 * and by default so are NATS and Redis: the bench runs its own nats-server (JetStream, data in the
 * log directory) and redis-server (no persistence). Only Postgres is shared, in a database of its own.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { closeSync, existsSync, mkdirSync, openSync, readFileSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { natsServerConfig, newNatsPasswords } from '@mm/bus';
import { ensureDatabase } from '@mm/db';
import { gatewayWorkersBesideServices } from '@mm/platform';
import { BenchError, type BenchOptions, type InfraName, type ServiceName } from './types';
import { treeOf } from './proc';

/** Signs the principals of the bench stack (set explicitly, so a direct bench can sign too). */
export const BENCH_INTERNAL_SECRET = 'bench-only-internal-secret-0123456789abcdef';
export const BENCH_ADMIN_KEY = 'bench-admin';

/** What code a stack runs, for a case's conditions line: the compiled build or the sources under tsx. */
export function codeOf(opts: Pick<BenchOptions, 'compiled'>): string {
  return opts.compiled ? `compiled JavaScript as the images run it (${opts.compiled})` : 'the sources under tsx';
}

export const DEFAULT_BENCH_PORTS: Record<ServiceName, number> = {
  gateway: 18080,
  account: 18081,
  recordings: 18082,
  pipeline: 18083,
  series: 18084,
  ask: 18085,
  events: 18086,
};

export const DEFAULT_INFRA_PORTS: Record<InfraName, number> = { nats: 14222, redis: 16379 };

const READY_TIMEOUT_MS = 90_000;
const STOP_GRACE_MS = 12_000;

interface ManagedProcess {
  name: ServiceName | InfraName;
  child: ChildProcess;
  logFile: string;
  exited: Promise<void>;
  /** Pids of the process and its children (tsx wrapper + node), captured once ready (for a forced kill). */
  tree: number[];
  /** Text the command line of each of its processes contains: a forced kill never hits a recycled pid. */
  signature: string;
  /** How it was started, to start it again after a kill (the chaos run). */
  cmd: string;
  args: string[];
  cwd: string;
}

export function portOf(opts: BenchOptions, name: ServiceName | InfraName): number {
  return (
    opts.ports[name] ?? (name === 'nats' || name === 'redis' ? DEFAULT_INFRA_PORTS[name] : DEFAULT_BENCH_PORTS[name])
  );
}

export function natsUrlOf(opts: BenchOptions): string {
  return opts.natsUrl ?? `nats://127.0.0.1:${portOf(opts, 'nats')}`;
}

export function redisUrlOf(opts: BenchOptions): string {
  return opts.redisUrl ?? `redis://127.0.0.1:${portOf(opts, 'redis')}`;
}

/** Where the services listen besides their ports with `--hops local` (LOCAL_SOCKET_DIR). */
const socketDirOf = (opts: BenchOptions): string => path.join(opts.logDir, 'sockets');

/** The private broker's passwords (one user per service, as everywhere: never an open broker). */
const NATS_PASSWORDS = newNatsPasswords();
const NATS_NAMESPACE = 'bench.';

/** The environment every bench service gets; `caseEnv` and `--service-env` come last. */
export function benchEnv(opts: BenchOptions, caseEnv: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env };
  delete env.NODE_ENV; // development defaults (secrets) apply; production would refuse them
  const names = Object.keys(DEFAULT_BENCH_PORTS) as ServiceName[];
  for (const s of names) {
    env[`${s.toUpperCase()}_PORT`] = String(portOf(opts, s));
    env[`${s.toUpperCase()}_URL`] = `http://127.0.0.1:${portOf(opts, s)}`;
  }
  Object.assign(env, {
    PORT: String(portOf(opts, 'gateway')),
    // The gateway's /readyz and /metrics port: never its public one.
    OPS_PORT: String(portOf(opts, 'gateway') + 1000),
    PUBLIC_BASE_URL: `http://127.0.0.1:${portOf(opts, 'gateway')}`,
    DATABASE_URL: opts.databaseUrl,
    NATS_URL: natsUrlOf(opts),
    // Subjects and streams of its own even on a shared NATS (--nats-url); see docs/decisions.md.
    BUS_NAMESPACE: NATS_NAMESPACE,
    // The private broker's users (on a shared one, --nats-url, NATS_PASSWORD_* come from the caller's environment).
    ...(opts.natsUrl === null
      ? Object.fromEntries(Object.entries(NATS_PASSWORDS).map(([u, p]) => [`NATS_PASSWORD_${u.toUpperCase()}`, p]))
      : {}),
    REDIS_URL: redisUrlOf(opts),
    INTERNAL_JWT_SECRET: BENCH_INTERNAL_SECRET,
    ADMIN_API_KEY: BENCH_ADMIN_KEY,
    LOCAL_SOCKET_DIR: opts.hops === 'local' ? socketDirOf(opts) : '',
    // As `pnpm start` runs it: the gateway shares the machine with the services.
    GATEWAY_WORKERS: String(gatewayWorkersBesideServices()),
    RATE_LIMIT_SCALE: '1000',
    LOG_LEVEL: 'warn',
    ...caseEnv,
    ...opts.serviceEnv,
  });
  return env;
}

async function assertPortFree(port: number, name: string): Promise<void> {
  await new Promise<void>((resolve, reject) => {
    const srv = net.createServer();
    srv.once('error', (err: NodeJS.ErrnoException) =>
      reject(
        new BenchError(
          `port ${port} for ${name} is taken (${err.code}); a stale bench? pass --port ${name}=<free port> or stop that process`,
        ),
      ),
    );
    srv.listen(port, '0.0.0.0', () => srv.close(() => resolve()));
  });
}

function tail(file: string, lines = 30): string {
  try {
    return readFileSync(file, 'utf8').trimEnd().split('\n').slice(-lines).join('\n');
  } catch {
    return '(no log)';
  }
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** A binary on PATH, or in an sbin directory (nats-server lives in /usr/sbin on Debian). */
function findBinary(name: string): string {
  const dirs = [
    ...(process.env.PATH ?? '').split(':').filter(Boolean),
    '/usr/sbin',
    '/usr/local/sbin',
    '/usr/local/bin',
  ];
  for (const d of dirs) if (existsSync(path.join(d, name))) return path.join(d, name);
  throw new BenchError(
    `${name} not found (install it, see deploy/install.sh, or pass --${name.replace('-server', '')}-url to use a running one)`,
  );
}

/** A set of running services; stop() is safe to call more than once and from a signal handler. */
export class Stack {
  private readonly procs: ManagedProcess[] = [];
  private stopping: Promise<void> | null = null;

  constructor(
    private readonly opts: BenchOptions,
    private readonly env: NodeJS.ProcessEnv,
  ) {}

  url(name: ServiceName | InfraName): string {
    return `http://127.0.0.1:${portOf(this.opts, name)}`;
  }

  /** The pids running a service right now (tsx wrapper and its node child), or private NATS/Redis. */
  pids(name: ServiceName | InfraName): number[] {
    const p = this.procs.find((x) => x.name === name);
    return p?.child.pid ? treeOf(p.child.pid) : [];
  }

  /**
   * The node process that runs the service's code (for memory measurements): the deepest process
   * of its tree whose command line names the service's main.ts. Not simply the last of the tree:
   * tsx's loader runs an esbuild child, and a service may be running ffprobe or an engine.
   */
  servicePid(name: ServiceName): number | null {
    const signature = this.launch(name).signature;
    const pids = this.pids(name).filter((pid) => {
      try {
        return readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes(signature);
      } catch {
        return false;
      }
    });
    return pids.length ? pids[pids.length - 1] : null;
  }

  logFile(name: ServiceName | InfraName): string | null {
    return this.procs.find((x) => x.name === name)?.logFile ?? null;
  }

  /** True when the bench runs its own NATS/Redis (their CPU is then exactly theirs). */
  hasPrivate(name: InfraName): boolean {
    return this.procs.some((p) => p.name === name);
  }

  private spawnLogged(
    name: ServiceName | InfraName,
    cmd: string,
    args: string[],
    signature: string,
    env: NodeJS.ProcessEnv = this.env,
    cwd: string = this.opts.root,
  ): ManagedProcess {
    const logFile = path.join(this.opts.logDir, `${name}.log`);
    const fd = openSync(logFile, 'a');
    const child = spawn(cmd, args, { cwd, env, stdio: ['ignore', fd, fd] });
    closeSync(fd);
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    child.once('error', () => undefined); // reported by waitReady through the exit code
    const p: ManagedProcess = { name, child, logFile, exited, tree: [], signature, cmd, args, cwd };
    this.procs.push(p);
    return p;
  }

  /** Private nats-server and redis-server, unless URLs were given; ready when they say so in their logs. */
  private async startInfra(log: (m: string) => void): Promise<void> {
    const started: Array<{ p: ManagedProcess; readyLine: RegExp }> = [];
    if (this.opts.natsUrl === null) {
      const port = portOf(this.opts, 'nats');
      await assertPortFree(port, 'nats');
      const dataDir = path.join(this.opts.logDir, 'nats-data');
      mkdirSync(dataDir, { recursive: true });
      // With authentication: the users and permissions generated from the bus table (libs/bus/src/auth.ts).
      const conf = path.join(this.opts.logDir, 'nats.conf');
      // The permissions name the namespace the services run in (a case, or chaos, may choose its own).
      writeFileSync(
        conf,
        natsServerConfig({
          port,
          storeDir: dataDir,
          passwords: NATS_PASSWORDS,
          namespace: this.env.BUS_NAMESPACE ?? NATS_NAMESPACE,
        }),
        { mode: 0o600 },
      );
      const p = this.spawnLogged('nats', findBinary('nats-server'), ['-c', conf], conf);
      started.push({ p, readyLine: /Server is ready/ });
    }
    if (this.opts.redisUrl === null) {
      const port = portOf(this.opts, 'redis');
      await assertPortFree(port, 'redis');
      const p = this.spawnLogged(
        'redis',
        findBinary('redis-server'),
        ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--daemonize', 'no'],
        `:${port}`,
      );
      started.push({ p, readyLine: /Ready to accept connections/ });
    }
    for (const { p, readyLine } of started) {
      const deadline = Date.now() + 15_000;
      for (;;) {
        if (p.child.exitCode !== null || p.child.signalCode !== null)
          throw new BenchError(`${p.name} exited at start (is ${p.name}-server installed?); log:\n${tail(p.logFile)}`);
        if (readyLine.test(tail(p.logFile, 200))) break;
        if (Date.now() > deadline) throw new BenchError(`${p.name} not ready after 15 s; log:\n${tail(p.logFile)}`);
        await sleep(100);
      }
      p.tree = p.child.pid ? [p.child.pid] : [];
    }
    if (started.length)
      log(
        `private ${started.map(({ p }) => `${p.name} :${portOf(this.opts, p.name)} (pid ${p.child.pid})`).join(', ')}`,
      );
  }

  /**
   * How a service is run: tsx on its sources, or node on the compiled tree of `--compiled`
   * (deploy/build.sh: DIR/<service>/src/main.js, run from DIR/<service> as the image runs it).
   */
  private launch(name: ServiceName): { cmd: string; main: string; cwd: string; signature: string } {
    if (this.opts.compiled) {
      const cwd = path.join(this.opts.compiled, name);
      return { cmd: process.execPath, main: path.join(cwd, 'src', 'main.js'), cwd, signature: `${name}/src/main.js` };
    }
    const main = path.join(this.opts.root, 'services', name, 'src', 'main.ts');
    return {
      cmd: path.join(this.opts.root, 'node_modules', '.bin', 'tsx'),
      main,
      cwd: this.opts.root,
      signature: `services/${name}/src/main.ts`,
    };
  }

  /**
   * Runs the services' migration steps, starts the services together and waits for every /readyz.
   * The database is created first so that no two services race to create it.
   */
  async start(services: ServiceName[], log: (m: string) => void): Promise<void> {
    const tsx = path.join(this.opts.root, 'node_modules', '.bin', 'tsx');
    if (!this.opts.compiled && !existsSync(tsx))
      throw new BenchError(`${tsx} is missing: --root must be a checkout with its dependencies installed`);
    for (const s of services) {
      const { main } = this.launch(s);
      if (!existsSync(main))
        throw new BenchError(
          `${main} is missing${this.opts.compiled ? ' (run pnpm build:services, or deploy/build.sh DIR)' : ''}`,
        );
      await assertPortFree(portOf(this.opts, s), s);
    }
    mkdirSync(this.opts.logDir, { recursive: true });
    if (this.opts.hops === 'local') mkdirSync(socketDirOf(this.opts), { recursive: true, mode: 0o700 });
    await this.startInfra(log);
    await ensureDatabase(this.opts.databaseUrl);
    await this.migrate(services);
    const launched: ManagedProcess[] = [];
    for (const name of services) {
      const { cmd, main, cwd, signature } = this.launch(name);
      const nodeFlags = this.opts.cpuProf.includes(name)
        ? ['--cpu-prof', `--cpu-prof-dir=${path.join(this.opts.logDir, 'prof', name)}`]
        : [];
      launched.push(this.spawnLogged(name, cmd, [...nodeFlags, main], signature, this.env, cwd));
    }
    log(
      `started ${launched.map((p) => `${p.name} :${portOf(this.opts, p.name)} (pid ${p.child.pid})`).join(', ')}; logs in ${this.opts.logDir}`,
    );
    await Promise.all(launched.map((p) => this.waitReady(p)));
    for (const p of launched) p.tree = p.child.pid ? treeOf(p.child.pid) : [];
  }

  /**
   * Each service's migration step (`main.ts migrate`), one after the other, before any starts: a
   * service's start only checks its schema. A checkout older than the step (`--root`) migrates at start.
   */
  private async migrate(services: ServiceName[]): Promise<void> {
    if (
      !this.opts.compiled &&
      !readFileSync(path.join(this.opts.root, 'libs', 'db', 'src', 'migrate.ts'), 'utf8').includes('isMigrateCommand')
    )
      return;
    for (const name of services) {
      const { cmd, main, cwd } = this.launch(name);
      const run = spawnSync(cmd, [main, 'migrate'], { cwd, env: this.env, encoding: 'utf8', timeout: 120_000 });
      if (run.status !== 0) throw new BenchError(`the migration step of ${name} failed: ${run.stderr || run.stdout}`);
    }
  }

  private async waitReady(p: ManagedProcess): Promise<void> {
    const url =
      p.name === 'gateway'
        ? `http://127.0.0.1:${portOf(this.opts, 'gateway') + 1000}/readyz`
        : `${this.url(p.name)}/readyz`;
    const deadline = Date.now() + READY_TIMEOUT_MS;
    for (;;) {
      if (p.child.exitCode !== null || p.child.signalCode !== null) {
        throw new BenchError(
          `${p.name} exited (${p.child.signalCode ?? p.child.exitCode}) before it was ready; last log lines:\n${tail(p.logFile)}`,
        );
      }
      try {
        const res = await fetch(url, { signal: AbortSignal.timeout(2000) });
        if (res.status === 200) return;
      } catch {
        // not listening yet
      }
      if (Date.now() > deadline)
        throw new BenchError(
          `${p.name} not ready after ${READY_TIMEOUT_MS / 1000} s (${url}); last log lines:\n${tail(p.logFile)}`,
        );
      await sleep(250);
    }
  }

  /** Throws when a service died during the run (its numbers would be meaningless). */
  assertAlive(): void {
    for (const p of this.procs) {
      if (p.child.exitCode !== null || p.child.signalCode !== null) {
        throw new BenchError(
          `${p.name} died during the bench (${p.child.signalCode ?? p.child.exitCode}); last log lines:\n${tail(p.logFile)}`,
        );
      }
    }
  }

  /** SIGTERM in reverse start order (each drains and exits), SIGKILL after a grace period. */
  stop(): Promise<void> {
    this.stopping ??= (async () => {
      for (const p of [...this.procs].reverse()) {
        if (p.child.exitCode !== null || p.child.signalCode !== null) continue;
        const tree = p.child.pid ? treeOf(p.child.pid) : p.tree;
        p.child.kill('SIGTERM');
        const done = await Promise.race([p.exited.then(() => true), sleep(STOP_GRACE_MS).then(() => false)]);
        if (!done) {
          for (const pid of tree) killIfOurs(pid, p.signature);
          await p.exited;
        }
        // tsx waits for its child, but make sure no orphan keeps the port.
        for (const pid of tree) killIfOurs(pid, p.signature);
      }
    })();
    return this.stopping;
  }

  /**
   * SIGKILLs a service or the private NATS/Redis, with no grace (the chaos run's fault), or with
   * `graceful` asks it to stop (SIGTERM: a restart); resolves once it is gone.
   */
  async kill(name: ServiceName | InfraName, graceful = false): Promise<void> {
    const p = this.procs.find((x) => x.name === name && x.child.exitCode === null && x.child.signalCode === null);
    if (!p) return;
    const tree = p.child.pid ? treeOf(p.child.pid) : p.tree;
    if (graceful) p.child.kill('SIGTERM');
    else for (const pid of [...tree].reverse()) killIfOurs(pid, p.signature);
    await p.exited;
    this.procs.splice(this.procs.indexOf(p), 1);
  }

  /**
   * Starts a killed service (or private NATS/Redis) again as it was started, with `env` over the
   * stack's environment (a case comparing two settings in one run); resolves once it is ready.
   */
  async restart(
    name: ServiceName | InfraName,
    was: { cmd: string; args: string[]; signature: string; cwd?: string },
    env: Record<string, string> = {},
  ): Promise<void> {
    const p = this.spawnLogged(name, was.cmd, was.args, was.signature, { ...this.env, ...env }, was.cwd);
    if (name === 'nats' || name === 'redis') await this.waitListening(p);
    else await this.waitReady(p);
    p.tree = p.child.pid ? treeOf(p.child.pid) : [];
  }

  /** How a running process was started (to restart it after `kill`). */
  launchOf(name: ServiceName | InfraName): { cmd: string; args: string[]; signature: string; cwd: string } {
    const p = this.procs.find((x) => x.name === name);
    if (!p) throw new BenchError(`${name} is not running`);
    return { cmd: p.cmd, args: p.args, signature: p.signature, cwd: p.cwd };
  }

  private async waitListening(p: ManagedProcess): Promise<void> {
    const port = portOf(this.opts, p.name);
    const deadline = Date.now() + 15_000;
    for (;;) {
      const open = await new Promise<boolean>((resolve) => {
        const socket = net.connect(port, '127.0.0.1', () => {
          socket.end();
          resolve(true);
        });
        socket.once('error', () => resolve(false));
      });
      if (open) return;
      if (p.child.exitCode !== null || Date.now() > deadline)
        throw new BenchError(`${p.name} did not listen again; log:\n${tail(p.logFile)}`);
      await sleep(100);
    }
  }

  /** Last resort on process exit (synchronous): kills every process this stack started. */
  killNow(): void {
    for (const p of this.procs)
      for (const pid of new Set([...(p.child.pid ? treeOf(p.child.pid) : []), ...p.tree])) killIfOurs(pid, p.signature);
  }
}

/** SIGKILL a pid only while its command line still has the signature (never a recycled pid). */
function killIfOurs(pid: number, signature: string): void {
  let cmdline: string;
  try {
    cmdline = readFileSync(`/proc/${pid}/cmdline`, 'utf8');
  } catch {
    return; // gone
  }
  if (!cmdline.includes(signature)) return;
  try {
    process.kill(pid, 'SIGKILL');
  } catch {
    // already gone
  }
}
