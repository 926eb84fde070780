/**
 * Starts services as real processes, the way `pnpm start` does (deploy/launcher.ts): each one is
 * `node_modules/.bin/tsx services/<name>/src/main.ts` with its configuration in the environment.
 * Ports are the bench's own (18080-18086 by default) so a running development stack is untouched.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { closeSync, mkdirSync, openSync, readFileSync } from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { ensureDatabase } from '@mm/db';
import { BenchError, type BenchOptions, type ServiceName } from './types';
import { treeOf } from './proc';

/** Signs the principals of the bench stack (set explicitly, so a direct bench can sign too). */
export const BENCH_INTERNAL_SECRET = 'bench-only-internal-secret-0123456789abcdef';
export const BENCH_ADMIN_KEY = 'bench-admin';

export const DEFAULT_BENCH_PORTS: Record<ServiceName, number> = {
  gateway: 18080,
  account: 18081,
  recordings: 18082,
  pipeline: 18083,
  series: 18084,
  ask: 18085,
  events: 18086,
};

const READY_TIMEOUT_MS = 90_000;
const STOP_GRACE_MS = 12_000;

interface ServiceProcess {
  name: ServiceName;
  child: ChildProcess;
  logFile: string;
  exited: Promise<void>;
  /** Pids of the tsx wrapper and the node process under it, captured once ready (for a forced kill). */
  tree: number[];
}

export function portOf(opts: BenchOptions, name: ServiceName): number {
  return opts.ports[name] ?? DEFAULT_BENCH_PORTS[name];
}

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
    PUBLIC_BASE_URL: `http://127.0.0.1:${portOf(opts, 'gateway')}`,
    DATABASE_URL: opts.databaseUrl,
    INTERNAL_JWT_SECRET: BENCH_INTERNAL_SECRET,
    ADMIN_API_KEY: BENCH_ADMIN_KEY,
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
      reject(new BenchError(`port ${port} for ${name} is taken (${err.code}); a stale bench? pass --port ${name}=<free port> or stop that process`)),
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

/** A set of running services; stop() is safe to call more than once and from a signal handler. */
export class Stack {
  private readonly procs: ServiceProcess[] = [];
  private stopping: Promise<void> | null = null;

  constructor(
    private readonly opts: BenchOptions,
    private readonly env: NodeJS.ProcessEnv,
  ) {}

  url(name: ServiceName): string {
    return `http://127.0.0.1:${portOf(this.opts, name)}`;
  }

  /** The pids running a service right now (tsx wrapper and its node child). */
  pids(name: ServiceName): number[] {
    const p = this.procs.find((x) => x.name === name);
    return p?.child.pid ? treeOf(p.child.pid) : [];
  }

  /** The node process that runs the service's code (the deepest one; for memory measurements). */
  servicePid(name: ServiceName): number | null {
    const pids = this.pids(name);
    return pids.length ? pids[pids.length - 1] : null;
  }

  logFile(name: ServiceName): string | null {
    return this.procs.find((x) => x.name === name)?.logFile ?? null;
  }

  /**
   * Starts the services together (each migrates its own schema under an advisory lock) and waits
   * for every /readyz. The database is created first so that no two services race to create it.
   */
  async start(services: ServiceName[], log: (m: string) => void): Promise<void> {
    for (const s of services) await assertPortFree(portOf(this.opts, s), s);
    await ensureDatabase(this.opts.databaseUrl);
    const tsx = path.join(this.opts.root, 'node_modules', '.bin', 'tsx');
    mkdirSync(this.opts.logDir, { recursive: true });
    for (const name of services) {
      const logFile = path.join(this.opts.logDir, `${name}.log`);
      const fd = openSync(logFile, 'a');
      const nodeFlags = this.opts.cpuProf.includes(name) ? ['--cpu-prof', `--cpu-prof-dir=${path.join(this.opts.logDir, 'prof', name)}`] : [];
      const child = spawn(tsx, [...nodeFlags, path.join(this.opts.root, 'services', name, 'src', 'main.ts')], {
        cwd: this.opts.root,
        env: this.env,
        stdio: ['ignore', fd, fd],
      });
      closeSync(fd);
      const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
      child.once('error', (err) => log(`${name}: spawn failed: ${err.message}`));
      this.procs.push({ name, child, logFile, exited, tree: [] });
    }
    log(`started ${services.map((s) => `${s} :${portOf(this.opts, s)} (pid ${this.procs.find((p) => p.name === s)!.child.pid})`).join(', ')}; logs in ${this.opts.logDir}`);
    await Promise.all(this.procs.map((p) => this.waitReady(p)));
    for (const p of this.procs) p.tree = p.child.pid ? treeOf(p.child.pid) : [];
  }

  private async waitReady(p: ServiceProcess): Promise<void> {
    const url = `${this.url(p.name)}/readyz`;
    const deadline = Date.now() + READY_TIMEOUT_MS;
    for (;;) {
      if (p.child.exitCode !== null || p.child.signalCode !== null) {
        throw new BenchError(`${p.name} exited (${p.child.signalCode ?? p.child.exitCode}) before it was ready; last log lines:\n${tail(p.logFile)}`);
      }
      try {
        const res = await fetch(url, { signal: AbortSignal.timeout(2000) });
        if (res.status === 200) return;
      } catch {
        // not listening yet
      }
      if (Date.now() > deadline) throw new BenchError(`${p.name} not ready after ${READY_TIMEOUT_MS / 1000} s (${url}); last log lines:\n${tail(p.logFile)}`);
      await sleep(250);
    }
  }

  /** Throws when a service died during the run (its numbers would be meaningless). */
  assertAlive(): void {
    for (const p of this.procs) {
      if (p.child.exitCode !== null || p.child.signalCode !== null) {
        throw new BenchError(`${p.name} died during the bench (${p.child.signalCode ?? p.child.exitCode}); last log lines:\n${tail(p.logFile)}`);
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
          for (const pid of tree) killIfOurs(pid, p.name);
          await p.exited;
        }
        // tsx waits for its child, but make sure no orphan keeps the port.
        for (const pid of tree) killIfOurs(pid, p.name);
      }
    })();
    return this.stopping;
  }

  /** Last resort on process exit (synchronous): kills every process this stack started. */
  killNow(): void {
    for (const p of this.procs) for (const pid of new Set([...(p.child.pid ? treeOf(p.child.pid) : []), ...p.tree])) killIfOurs(pid, p.name);
  }
}

/** SIGKILL a pid only while it still runs this service's main.ts (never a recycled pid). */
function killIfOurs(pid: number, name: ServiceName): void {
  let cmdline: string;
  try {
    cmdline = readFileSync(`/proc/${pid}/cmdline`, 'utf8');
  } catch {
    return; // gone
  }
  if (!cmdline.includes(`services/${name}/src/main.ts`)) return;
  try {
    process.kill(pid, 'SIGKILL');
  } catch {
    // already gone
  }
}
