/** `pnpm bench [options]`: the command line of tests/bench/run.ts. */
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { DEFAULT_BENCH_PORTS, DEFAULT_INFRA_PORTS } from './stack';
import type { BenchOptions, InfraName, ServiceName } from './types';

export const USAGE = `usage: pnpm bench [options]

Starts its own stack (real processes on ports 18080-18086, database meeting_memory_bench),
runs the bench cases, prints a table per case and PASS/FAIL per target, stops everything.

  --only NAME[,NAME]      run only these cases (repeatable); --list shows them
  --list                  list the cases and exit
  --duration S            measured seconds per load run (default 15)
  --warmup S              unmeasured warm-up seconds before each run (default 3)
  --connections N         wrk connections (default 50; the targets are defined at 50)
  --threads N             wrk threads (default 2)
  --port NAME=PORT        a port of the stack (repeatable), e.g. --port gateway=19080, --port nats=14223
                          (defaults: services 18080-18086, private nats 14222, private redis 16379)
  --database-url URL      default $BENCH_DATABASE_URL or postgres://postgres@127.0.0.1:5432/meeting_memory_bench
                          (with --hops local: through Postgres's Unix socket when it lets the user in)
  --hops local|tcp        how the stack's processes reach each other: local (default, as \`pnpm start\`
                          runs them: the gateway forwards over Unix sockets, Postgres over its socket)
                          or tcp (every hop on TCP, as between the pods of deploy/k8s)
  --nats-url URL          use this NATS instead of starting a private nats-server (shares subjects
                          and queue groups with every other stack on it)
  --redis-url URL         use this Redis instead of starting a private redis-server
  --service-env KEY=VAL   extra environment for every service (repeatable), e.g. LOG_LEVEL=silent
  --cpu-prof NAME         run a service under node --cpu-prof (repeatable); profiles in <log-dir>/prof
  --root DIR              start the services of another checkout (compare a branch or an experiment)
  --compiled DIR          run the compiled JavaScript of \`pnpm build:services\` (DIR/<service>/src/main.js,
                          as the images run it) instead of tsx; e.g. --compiled dist/services. Without it,
                          routes and mixed build their own first (deploy/build.sh into <log-dir>/build,
                          about 40 s) and every other case runs the sources under tsx
  --tsx                   routes and mixed too run the sources under tsx (no build)
  --log-dir DIR           service logs, raw wrk output, results.json (default /tmp/mm-bench-<time>)
  --routes OP[,OP]        the routes case measures only these operationIds (repeatable), e.g. --routes
                          getAccount,listReadyRecordings (a call with a body runs only when named); default all

exit status: 0 every target passed, 1 the bench failed (error responses, a service died),
2 bad usage, 3 a target failed, 130 interrupted.`;

const SERVICE_NAMES = Object.keys(DEFAULT_BENCH_PORTS) as ServiceName[];

export class UsageError extends Error {}

function hopsOf(raw: string | undefined): 'local' | 'tcp' {
  if (raw === undefined || raw === 'local' || raw === 'tcp') return raw ?? 'local';
  throw new UsageError('--hops must be local or tcp');
}

function positive(name: string, raw: string | undefined, def: number, min: number): number {
  if (raw === undefined) return def;
  const n = Number(raw);
  if (!Number.isFinite(n) || n < min) throw new UsageError(`--${name} must be a number >= ${min}`);
  return n;
}

function service(raw: string, flag: string): ServiceName {
  if (!SERVICE_NAMES.includes(raw as ServiceName))
    throw new UsageError(`${flag}: unknown service ${raw} (one of ${SERVICE_NAMES.join(', ')})`);
  return raw as ServiceName;
}

function splitList(values: string[]): string[] {
  return values
    .flatMap((o) => o.split(','))
    .map((s) => s.trim())
    .filter(Boolean);
}

export interface ParsedArgs {
  opts: BenchOptions;
  only: string[] | null;
  list: boolean;
  help: boolean;
}

export function parseBenchArgs(argv: string[], defaultRoot: string): ParsedArgs {
  const args = argv[0] === '--' ? argv.slice(1) : argv;
  const { values } = parseArgs({
    args,
    strict: true,
    allowPositionals: false,
    options: {
      only: { type: 'string', multiple: true },
      list: { type: 'boolean' },
      help: { type: 'boolean', short: 'h' },
      duration: { type: 'string' },
      warmup: { type: 'string' },
      connections: { type: 'string' },
      threads: { type: 'string' },
      port: { type: 'string', multiple: true },
      'database-url': { type: 'string' },
      'nats-url': { type: 'string' },
      'redis-url': { type: 'string' },
      'service-env': { type: 'string', multiple: true },
      'cpu-prof': { type: 'string', multiple: true },
      root: { type: 'string' },
      compiled: { type: 'string' },
      tsx: { type: 'boolean' },
      'log-dir': { type: 'string' },
      routes: { type: 'string', multiple: true },
      hops: { type: 'string' },
    },
  });
  const ports: BenchOptions['ports'] = {};
  for (const p of values.port ?? []) {
    const m = /^(\w+)=(\d+)$/.exec(p);
    if (!m) throw new UsageError(`--port takes NAME=PORT (got ${p})`);
    const name = m[1] in DEFAULT_INFRA_PORTS ? (m[1] as InfraName) : service(m[1], '--port');
    ports[name] = Number(m[2]);
  }
  const serviceEnv: Record<string, string> = {};
  for (const e of values['service-env'] ?? []) {
    const i = e.indexOf('=');
    if (i <= 0) throw new UsageError(`--service-env takes KEY=VALUE (got ${e})`);
    serviceEnv[e.slice(0, i)] = e.slice(i + 1);
  }
  const stamp = new Date().toISOString().replace(/[-:]/g, '').replace(/\..*/, '').replace('T', '-');
  const logDir = path.resolve(values['log-dir'] ?? `/tmp/mm-bench-${stamp}`);
  const threads = positive('threads', values.threads, 2, 1);
  const connections = positive('connections', values.connections, 50, 1);
  if (values.tsx && values.compiled) throw new UsageError('--tsx and --compiled exclude each other');
  if (connections < threads)
    throw new UsageError('--connections must be >= --threads (wrk gives each thread at least one)');
  const opts: BenchOptions = {
    root: path.resolve(values.root ?? defaultRoot),
    duration: positive('duration', values.duration, 15, 1),
    warmup: positive('warmup', values.warmup, 3, 0),
    connections,
    threads,
    ports,
    databaseUrl:
      values['database-url'] ??
      process.env.BENCH_DATABASE_URL ??
      'postgres://postgres@127.0.0.1:5432/meeting_memory_bench',
    natsUrl: values['nats-url'] ?? null,
    redisUrl: values['redis-url'] ?? null,
    serviceEnv,
    cpuProf: (values['cpu-prof'] ?? []).map((s) => service(s, '--cpu-prof')),
    logDir,
    compiled: values.compiled ? path.resolve(values.compiled) : null,
    tsx: !!values.tsx,
    routes: values.routes ? splitList(values.routes) : null,
    hops: hopsOf(values.hops),
    databaseUrlGiven: values['database-url'] !== undefined || process.env.BENCH_DATABASE_URL !== undefined,
  };
  const only = values.only ? splitList(values.only) : null;
  if (!values.list && !values.help) mkdirSync(logDir, { recursive: true });
  return { opts, only, list: !!values.list, help: !!values.help };
}
