/**
 * `pnpm images`: builds every target of deploy/Dockerfile with podman (no Docker engine, no registry
 * image: the base is made of Debian packages and the npm registry's Node by deploy/base-image.sh,
 * unless NODE_IMAGE names one), then runs each image as production runs it (read-only root, uid
 * 1000, every capability dropped, no new privileges):
 *   1. with no configuration: it must exit non-zero with one line on stderr (its configuration error);
 *   2. against the machine's Postgres, Redis and a private nats-server started with the committed
 *      deploy/nats/nats.conf (so with the bus table's users and passwords): a fresh database whose
 *      administrator has CREATEROLE and is no superuser, the roles and schemas made by the Kubernetes
 *      bootstrap script, the bus setup step from the gateway's image, each service's migration step
 *      from its own image, then the service, which must answer /readyz (the MCP server: its port).
 * Prints a table (target, size, result) and exits non-zero when any build or check failed.
 * Slow (minutes per target on a busy machine): not part of `pnpm test`. Needs root and podman.
 *   pnpm images [target...]          every target by default
 *   NODE_IMAGE=node:24.21.0-bookworm-slim@sha256:… pnpm images   a registry base instead
 *   IMAGES_SKIP_BUILD=1 pnpm images  run the checks on images built before
 * Environment: DATABASE_URL (its server: the superuser that makes the administrator), REDIS_URL.
 */
import { execFileSync, spawn, spawnSync, type SpawnSyncReturns } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { BUS_SERVICES } from '../libs/contract/src';

const ROOT = path.resolve(__dirname, '..');
const DOCKERFILE = path.join(ROOT, 'deploy', 'Dockerfile');

/** The Dockerfile's service targets: the stages that copy a service's production install. */
export function dockerfileTargets(dockerfile = readFileSync(DOCKERFILE, 'utf8')): string[] {
  const targets: string[] = [];
  let stage = '';
  for (const line of dockerfile.split('\n')) {
    const from = /^FROM\s+\S+\s+AS\s+(\S+)/i.exec(line);
    if (from) stage = from[1];
    const copy = /^COPY --from=build .*\/out\/([a-z-]+) \/app/.exec(line);
    if (copy && copy[1] === stage) targets.push(stage);
  }
  return targets;
}

/** Services whose image opens Postgres: those the bootstrap script makes a role for. */
function bootstrapServices(): Record<string, string> {
  const script = readFileSync(path.join(ROOT, 'k8s', 'base', 'postgres', 'bootstrap.sh'), 'utf8');
  const pairs = /^services="([^"]+)"/m.exec(script)![1].split(' ');
  return Object.fromEntries(pairs.map((p) => p.split(':') as [string, string]));
}

const log = (line: string) => process.stderr.write(`images: ${line}\n`);
const has = (bin: string) => spawnSync('sh', ['-c', `command -v ${bin}`]).status === 0;

/**
 * podman's options for this kind of machine: runc where crun refuses the host's hybrid cgroups,
 * and limits below the container's own (it may not raise RLIMIT_NOFILE/NPROC: no CAP_SYS_RESOURCE).
 */
const RUNTIME = process.env.PODMAN_RUNTIME ?? (has('runc') ? 'runc' : '');
const runtimeFlags = () => (RUNTIME ? ['--runtime', RUNTIME] : []);
const LIMITS = ['--ulimit', 'nofile=16384:16384', '--ulimit', 'nproc=4096:4096'];
/** How production runs a container: read-only root, uid 1000, no capabilities, no new privileges. */
const HARDENED = ['--read-only', '--user', '1000:1000', '--cap-drop', 'ALL', '--security-opt', 'no-new-privileges'];

function podman(args: string[], opts: { input?: string; timeoutMs?: number } = {}): SpawnSyncReturns<string> {
  return spawnSync('podman', [...runtimeFlags(), ...args], {
    encoding: 'utf8',
    input: opts.input,
    timeout: opts.timeoutMs,
    maxBuffer: 64 * 1024 * 1024,
  });
}

function baseImage(): string {
  if (process.env.NODE_IMAGE) return process.env.NODE_IMAGE;
  const out = execFileSync('bash', [path.join(ROOT, 'deploy', 'base-image.sh')], {
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  return out.trim().split('\n').pop()!;
}

const imageOf = (target: string, version: string) => `localhost/meeting-memory/${target}:${version}`;

function build(
  target: string,
  base: string,
  version: string,
  commit: string,
): { ok: boolean; seconds: number; out: string } {
  const started = Date.now();
  const args = ['build', ...LIMITS, '--network', 'host', '-f', DOCKERFILE, '--target', target];
  args.push(
    '--build-arg',
    `NODE_IMAGE=${base}`,
    '--build-arg',
    `VERSION=${version}`,
    '--build-arg',
    `COMMIT=${commit}`,
  );
  // A TLS-inspecting proxy's CA, as the host trusts it, for the build stage's npm and pnpm (not kept in any image).
  const ca = process.env.NODE_EXTRA_CA_CERTS;
  if (ca && existsSync(ca))
    args.push(
      '--volume',
      `${ca}:/etc/ssl/certs/build-ca.crt:ro`,
      '--build-arg',
      'NODE_EXTRA_CA_CERTS=/etc/ssl/certs/build-ca.crt',
    );
  args.push('-t', imageOf(target, version), ROOT);
  const r = spawnSync('podman', [...runtimeFlags(), ...args], { encoding: 'utf8', maxBuffer: 256 * 1024 * 1024 });
  return { ok: r.status === 0, seconds: Math.round((Date.now() - started) / 1000), out: `${r.stdout}${r.stderr}` };
}

const mb = (bytes: number) => `${Math.round(bytes / 1e6)} MB`;

/** Check 1: no configuration (production): a non-zero exit and exactly one line on stderr. */
function configurationError(image: string): { ok: boolean; detail: string } {
  const r = podman(['run', '--rm', ...LIMITS, ...HARDENED, '--network', 'none', '-e', 'NODE_ENV=production', image], {
    timeoutMs: 60_000,
  });
  const lines = (r.stderr ?? '').split('\n').filter((l) => l.trim() && !/^time=|level=warning/.test(l));
  const ok = r.status !== 0 && r.status !== null && lines.length === 1;
  return {
    ok,
    detail: ok
      ? `exit ${r.status}: ${lines[0].slice(0, 160)}`
      : `exit ${r.status}, stderr ${JSON.stringify(lines.slice(0, 5))}`,
  };
}

interface Deps {
  env: Record<string, string>;
  databaseUrl: (service: string) => string;
  natsUrl: string;
  natsPasswords: Record<string, string>;
  stop: () => void;
}

function psql(url: string, sql: string): void {
  execFileSync('psql', [url, '-v', 'ON_ERROR_STOP=1', '-qc', sql], { stdio: ['ignore', 'ignore', 'inherit'] });
}

/** True once something accepts TCP connections on 127.0.0.1:port (within ms). */
async function listening(port: number, ms: number): Promise<boolean> {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    const ok = await new Promise<boolean>((resolve) => {
      const socket = connect(port, '127.0.0.1', () => {
        socket.end();
        resolve(true);
      });
      socket.on('error', () => resolve(false));
    });
    if (ok) return true;
    await new Promise((r) => setTimeout(r, 250));
  }
  return false;
}

/** A fresh database with a CREATEROLE administrator, the bootstrap script, and a private nats-server. */
async function dependencies(id: string, portBase: number): Promise<Deps> {
  const server = new URL(process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres');
  const su = new URL(server);
  su.pathname = '/postgres';
  const admin = `mm_img_admin_${id}`;
  const database = `mm_img_${id}`;
  const prefix = `mmi${id}_`;
  const services = bootstrapServices();
  const dbPasswords = Object.fromEntries(Object.keys(services).map((s) => [s, randomBytes(12).toString('hex')]));
  psql(su.toString(), `create role ${admin} login createrole nosuperuser nocreatedb`);
  psql(su.toString(), `create database ${database} owner ${admin}`);
  const work = mkdtempSync(path.join(tmpdir(), 'mm-images-'));
  // A letter first: nats-server parses a value read from its environment, and one like `1e5…` or `-…` is refused.
  const natsPasswords = Object.fromEntries(
    [...BUS_SERVICES, 'operator'].map((u) => [u, `p${randomBytes(12).toString('hex')}`]),
  );
  const stop = () => {
    nats.kill('SIGTERM');
    spawnSync('psql', [su.toString(), '-qc', `drop database if exists ${database} with (force)`]);
    for (const s of Object.keys(services))
      spawnSync('psql', [su.toString(), '-qc', `drop role if exists ${prefix}${s}`]);
    spawnSync('psql', [su.toString(), '-qc', `drop role if exists ${admin}`]);
    rmSync(work, { recursive: true, force: true });
  };
  const natsPort = portBase + 99;
  const natsEnv = {
    PATH: process.env.PATH,
    ...Object.fromEntries(Object.entries(natsPasswords).map(([u, pw]) => [`NATS_PASSWORD_${u.toUpperCase()}`, pw])),
  };
  // The committed configuration, its store in this run's directory; address and port from the command line.
  writeFileSync(
    path.join(work, 'nats.conf'),
    readFileSync(path.join(ROOT, 'deploy', 'nats', 'nats.conf'), 'utf8').replace(
      '"/data/jetstream"',
      JSON.stringify(path.join(work, 'js')),
    ),
  );
  const nats = spawn(
    'nats-server',
    ['-c', path.join(work, 'nats.conf'), '-a', '127.0.0.1', '-p', String(natsPort), '-l', path.join(work, 'nats.log')],
    { env: natsEnv, stdio: ['ignore', 'ignore', 'pipe'] },
  );
  let natsErr = '';
  nats.stderr!.on('data', (d: Buffer) => (natsErr += d.toString()));
  try {
    const boot = spawnSync('sh', [path.join(ROOT, 'k8s', 'base', 'postgres', 'bootstrap.sh')], {
      encoding: 'utf8',
      env: {
        PATH: process.env.PATH,
        ...{
          PGHOST: server.hostname,
          PGPORT: server.port || '5432',
          PGDATABASE: database,
          PGUSER: admin,
          PGPASSWORD: 'unused-with-trust',
          ROLE_PREFIX: prefix,
        },
        ...Object.fromEntries(Object.entries(dbPasswords).map(([s, pw]) => [`${s.toUpperCase()}_DB_PASSWORD`, pw])),
      },
    });
    if (boot.status !== 0) throw new Error(`bootstrap.sh failed: ${boot.stderr}`);
    if (!(await listening(natsPort, 20_000)))
      throw new Error(
        `nats-server did not listen on ${natsPort}: ${natsErr.trim()}${existsSync(path.join(work, 'nats.log')) ? readFileSync(path.join(work, 'nats.log'), 'utf8').slice(-500) : ''}`,
      );
  } catch (err) {
    stop();
    throw err;
  }
  const databaseUrl = (service: string) => {
    const url = new URL(server);
    url.username = `${prefix}${service}`;
    url.password = dbPasswords[service];
    url.pathname = `/${database}`;
    return url.toString();
  };
  // Every service's port moved (host network, a machine others share), and where the others are.
  const env: Record<string, string> = {
    NODE_ENV: 'production',
    HOST: '127.0.0.1',
    LOG_LEVEL: 'warn',
    INTERNAL_JWT_SECRET: randomBytes(32).toString('hex'),
  };
  ['gateway', 'account', 'recordings', 'pipeline', 'series', 'ask', 'events', 'web'].forEach((s, i) => {
    env[`${s.toUpperCase()}_PORT`] = String(portBase + i);
    env[`${s.toUpperCase()}_URL`] = `http://127.0.0.1:${portBase + i}`;
  });
  env.PORT = env.GATEWAY_PORT;
  env.OPS_PORT = String(portBase + 50);
  env.PUBLIC_BASE_URL = env.GATEWAY_URL;
  return { env, databaseUrl, natsUrl: `nats://127.0.0.1:${natsPort}`, natsPasswords, stop };
}

/** The environment compose gives a service, with this run's values (compose.yaml's names; the store on /data). */
function serviceEnv(target: string, deps: Deps): Record<string, string> {
  const env: Record<string, string> = { ...deps.env, NATS_URL: deps.natsUrl };
  const services = bootstrapServices();
  if (target in services) env.DATABASE_URL = deps.databaseUrl(target);
  if ((BUS_SERVICES as readonly string[]).includes(target)) env.NATS_PASSWORD = deps.natsPasswords[target];
  if (target === 'gateway') env.REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379/8';
  if (target === 'gateway') env.TOKEN_HASH_KEY = randomBytes(32).toString('hex');
  if (target === 'mcp')
    Object.assign(env, { MM_URL: deps.env.GATEWAY_URL, MCP_PORT: String(Number(deps.env.GATEWAY_PORT) + 60) });
  return env;
}

const envArgs = (env: Record<string, string>) => Object.entries(env).flatMap(([k, v]) => ['-e', `${k}=${v}`]);

/** The port a running target answers on: /readyz (the gateway's on its ops port), the MCP server's any answer. */
function probeOf(target: string, env: Record<string, string>): string {
  if (target === 'mcp') return `http://127.0.0.1:${env.MCP_PORT}/mcp`;
  if (target === 'gateway') return `http://127.0.0.1:${env.OPS_PORT}/readyz`;
  return `http://127.0.0.1:${env[`${target.toUpperCase()}_PORT`]}/readyz`;
}

async function waitFor(url: string, ok: (status: number) => boolean, ms: number): Promise<number | null> {
  const until = Date.now() + ms;
  let last: number | null = null;
  while (Date.now() < until) {
    last = await fetch(url, { signal: AbortSignal.timeout(2000) }).then(
      (r) => r.status,
      () => null,
    );
    if (last !== null && ok(last)) return last;
    await new Promise((r) => setTimeout(r, 1000));
  }
  return last;
}

/** Check 2: the migration step (when it has one), then the service until /readyz answers 200. */
async function startsReady(
  target: string,
  image: string,
  deps: Deps,
  id: string,
): Promise<{ ok: boolean; detail: string }> {
  const env = serviceEnv(target, deps);
  const run = ['run', ...LIMITS, ...HARDENED, '--network', 'host'];
  if (env.DATABASE_URL) {
    const m = podman([...run, '--rm', ...envArgs(env), image, 'node', 'src/main.js', 'migrate'], {
      timeoutMs: 120_000,
    });
    if (m.status !== 0)
      return {
        ok: false,
        detail: `migrate exit ${m.status}: ${(m.stderr || m.stdout).trim().split('\n').slice(-2).join(' | ')}`,
      };
  }
  const name = `mm-images-${target}-${id}`;
  const started = Date.now();
  const c = podman([...run, '-d', '--name', name, ...envArgs(env), image], { timeoutMs: 60_000 });
  if (c.status !== 0) return { ok: false, detail: `podman run: ${c.stderr.trim()}` };
  try {
    const url = probeOf(target, env);
    const status = await waitFor(url, (s) => (target === 'mcp' ? s < 500 : s === 200), 120_000);
    const seconds = ((Date.now() - started) / 1000).toFixed(1);
    if (target === 'mcp' ? status !== null && status < 500 : status === 200)
      return {
        ok: true,
        detail: `${new URL(url).pathname} ${status} after ${seconds} s${env.DATABASE_URL ? ' (migrated first)' : ''}`,
      };
    const logs = podman(['logs', '--tail', '3', name]);
    return {
      ok: false,
      detail: `${url} answered ${status}; ${`${logs.stdout}${logs.stderr}`
        .trim()
        .replace(/\s*\n\s*/g, ' | ')
        .slice(0, 300)}`,
    };
  } finally {
    podman(['rm', '-f', '-t', '5', name]);
  }
}

async function main(): Promise<void> {
  if (!has('podman')) throw new Error('podman is not installed (apt-get install -y podman buildah debootstrap)');
  const all = dockerfileTargets();
  const targets = process.argv.slice(2).length ? process.argv.slice(2) : all;
  const unknown = targets.filter((t) => !all.includes(t));
  if (unknown.length) throw new Error(`no such target: ${unknown.join(', ')} (targets: ${all.join(', ')})`);
  const commit = execFileSync('git', ['rev-parse', 'HEAD'], { cwd: ROOT, encoding: 'utf8' }).trim();
  // The images' tag and version (OCI label, /healthz, build_info): IMAGES_VERSION, else dev-<commit>.
  const tag = process.env.IMAGES_VERSION ?? `dev-${commit.slice(0, 12)}`;
  const started = Date.now();
  const rows: { target: string; size: string; build: string; config: string; ready: string; ok: boolean }[] = [];
  const base = process.env.IMAGES_SKIP_BUILD ? '' : baseImage();
  if (base) log(`base ${base}`);
  // The gateway first: its image runs the bus setup step the others wait for.
  const ordered = [...targets].sort((a, b) => Number(b === 'gateway') - Number(a === 'gateway'));
  const built: string[] = [];
  for (const target of ordered) {
    if (process.env.IMAGES_SKIP_BUILD) {
      built.push(target);
      continue;
    }
    log(`building ${target}`);
    const b = build(target, base, tag, commit);
    if (!b.ok) {
      log(`${target}: build failed\n${b.out.split('\n').slice(-25).join('\n')}`);
      rows.push({ target, size: '-', build: `failed after ${b.seconds} s`, config: '-', ready: '-', ok: false });
      continue;
    }
    rows.push({ target, size: '', build: `${b.seconds} s`, config: '', ready: '', ok: true });
    built.push(target);
  }
  const id = randomBytes(3).toString('hex');
  const deps = await dependencies(id, 28000 + (parseInt(id, 16) % 40) * 100);
  try {
    if (podman(['image', 'exists', imageOf('gateway', tag)]).status === 0) {
      const setup = podman(
        [
          'run',
          '--rm',
          ...LIMITS,
          ...HARDENED,
          '--network',
          'host',
          '-e',
          'NODE_ENV=production',
          '-e',
          `NATS_URL=${deps.natsUrl}`,
          '-e',
          `NATS_SETUP_PASSWORD=${deps.natsPasswords.operator}`,
          imageOf('gateway', tag),
          'node',
          'src/main.js',
          'bus-setup',
        ],
        { timeoutMs: 60_000 },
      );
      log(`bus setup (gateway image): exit ${setup.status} ${(setup.stdout + setup.stderr).trim()}`);
    }
    for (const target of built) {
      const image = imageOf(target, tag);
      let row = rows.find((r) => r.target === target);
      if (!row) rows.push((row = { target, size: '', build: 'not built now', config: '', ready: '', ok: true }));
      const size = podman(['image', 'inspect', '--format', '{{.Size}}', image]);
      if (size.status !== 0) {
        Object.assign(row, { size: '-', config: 'no image', ready: '-', ok: false });
        continue;
      }
      row.size = mb(Number(size.stdout.trim()));
      log(`checking ${target} (${row.size})`);
      const config = configurationError(image);
      const ready = await startsReady(target, image, deps, id);
      Object.assign(row, { config: config.detail, ready: ready.detail, ok: row.ok && config.ok && ready.ok });
    }
  } finally {
    deps.stop();
  }
  const minutes = ((Date.now() - started) / 60000).toFixed(1);
  process.stdout.write(
    `\n| target | size | build | no configuration | against Postgres/Redis/NATS |\n| --- | --- | --- | --- | --- |\n`,
  );
  for (const r of rows) process.stdout.write(`| ${r.target} | ${r.size} | ${r.build} | ${r.config} | ${r.ready} |\n`);
  process.stdout.write(
    `\n${rows.filter((r) => r.ok).length}/${rows.length} targets built and checked in ${minutes} min (base ${base || 'not rebuilt'}, tag ${tag})\n`,
  );
  if (rows.some((r) => !r.ok)) process.exitCode = 1;
}

if (require.main === module) {
  main().catch((err: unknown) => {
    log(String(err instanceof Error ? err.message : err));
    process.exit(1);
  });
}
