import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { ensureDatabase } from '@mm/db';
import { natsCredentials } from '@mm/bus';
import { dropDatabase } from '../support/stack';

const ROOT = path.resolve(__dirname, '..', '..');
const SERVICES = ['gateway', 'account', 'recordings', 'pipeline', 'series', 'ask', 'events', 'web'] as const;
const out = mkdtempSync(path.join(tmpdir(), 'mm-prod-'));
const ns = `p${randomBytes(4).toString('hex')}`;
const dbUrl = new URL(process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/meeting_memory_test');
dbUrl.pathname = `${dbUrl.pathname}_${ns}`;
const natsUrl = process.env.NATS_URL ?? 'nats://127.0.0.1:4222';

/** Every file name under `dir`, recursively. */
function filesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true, recursive: true }).map((e) =>
    path.join(e.parentPath ?? (e as unknown as { path: string }).path, e.name),
  );
}

beforeAll(() => {
  // The Dockerfile's build stage: compile once, `pnpm deploy --prod` per service.
  try {
    // --prefer-offline, not --offline: `pnpm deploy` resolves the services' version ranges again and
    // needs the registry's metadata, which a fresh machine's frozen install never cached (the
    // packages themselves come from the local store).
    execFileSync('bash', [path.join(ROOT, 'deploy', 'build.sh'), out], {
      env: { ...process.env, PNPM_FLAGS: '--prefer-offline' },
      stdio: 'pipe',
    });
  } catch (err) {
    // execFileSync's message says only "Command failed": show what the build printed.
    const { stdout, stderr } = err as { stdout?: Buffer; stderr?: Buffer };
    throw new Error(`deploy/build.sh failed:\n${String(stderr ?? '')}${String(stdout ?? '')}`.slice(0, 4000));
  }
  // The bus setup step as the bus-setup Job and compose run it: the gateway's install, plain node,
  // `node src/main.js bus-setup` with the operator's password alone (a pod's own NATS user may not make streams).
  const setup = execFileSync(process.execPath, [path.join(out, 'gateway', 'src', 'main.js'), 'bus-setup'], {
    cwd: path.join(out, 'gateway'),
    // A broker without authentication (a developer's) takes any password.
    env: {
      PATH: process.env.PATH,
      NATS_URL: natsUrl,
      BUS_NAMESPACE: `${ns}.`,
      NATS_SETUP_PASSWORD: natsCredentials('operator').pass ?? 'no-authentication',
    },
    encoding: 'utf8',
  });
  expect(setup).toMatch(/bus setup: every stream is in place/);
}, 300_000);
afterAll(async () => {
  rmSync(out, { recursive: true, force: true });
  await dropDatabase(dbUrl.toString());
});

describe.each(SERVICES)('the %s service from a production-only install', (service) => {
  const dir = path.join(out, service);

  it('holds compiled JavaScript and production dependencies only', () => {
    const files = filesUnder(dir);
    expect(existsSync(path.join(dir, 'src', 'main.js'))).toBe(true);
    const ownCode = files.filter(
      (f) => !f.includes(`${path.sep}node_modules${path.sep}`) || f.includes(`${path.sep}@mm${path.sep}`),
    );
    expect(ownCode.filter((f) => /\.ts$/.test(f) && !/\.d\.ts$/.test(f))).toEqual([]);
    const installed = readdirSync(path.join(dir, 'node_modules', '.pnpm'));
    for (const dev of ['typescript@', 'tsx@', 'jest@', '@swc+core@', 'supertest@', '@types+'])
      expect(installed.filter((p) => p.startsWith(dev))).toEqual([]);
  });

  it('starts with plain node (no tsx), answers /readyz, and stops on SIGTERM with exit 0', async () => {
    await ensureDatabase(dbUrl.toString());
    const port = 19000 + SERVICES.indexOf(service) * 7 + Math.floor(Math.random() * 5);
    // The gateway answers /readyz on its ops port only.
    const opsPort = service === 'gateway' ? port + 1000 : port;
    const env = {
      PATH: process.env.PATH ?? '',
      NODE_ENV: 'production',
      LOG_LEVEL: 'warn',
      DATABASE_URL: dbUrl.toString(),
      NATS_URL: natsUrl,
      // Its own NATS user, as a pod gets it from its Secret (the suite's broker has authentication on).
      ...(process.env[`NATS_PASSWORD_${service.toUpperCase()}`]
        ? { NATS_PASSWORD: process.env[`NATS_PASSWORD_${service.toUpperCase()}`] }
        : {}),
      REDIS_URL: process.env.REDIS_URL ?? 'redis://127.0.0.1:6379',
      BUS_NAMESPACE: `${ns}.`,
      INTERNAL_JWT_SECRET: randomBytes(24).toString('hex'),
      TOKEN_HASH_KEY: randomBytes(24).toString('hex'),
      ADMIN_API_KEY: randomBytes(24).toString('hex'),
      AUDIO_STORE_URL: `file:${path.join(out, 'store')}`,
      [service === 'gateway' ? 'PORT' : `${service.toUpperCase()}_PORT`]: String(port),
      OPS_PORT: String(opsPort),
    };
    // A start on a schema its migrations have not reached is refused, naming the migration step;
    // the step (`node src/main.js migrate`, the migrate initContainer) from the same install, then the start.
    const refused = spawnSync(process.execPath, [path.join(dir, 'src', 'main.js')], {
      cwd: dir,
      env,
      encoding: 'utf8',
      timeout: 30_000,
    });
    expect({ status: refused.status, stderr: refused.stderr }).toEqual({
      status: 1,
      stderr: expect.stringMatching(/failed to start: schema \w+ (has no migrations applied|lacks).*main\.js migrate/),
    });
    execFileSync(process.execPath, [path.join(dir, 'src', 'main.js'), 'migrate'], {
      cwd: dir,
      env: { PATH: env.PATH, DATABASE_URL: env.DATABASE_URL },
      stdio: 'pipe',
    });
    const child = spawn(process.execPath, [path.join(dir, 'src', 'main.js')], {
      cwd: dir,
      env,
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    child.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
    const exited = new Promise<number | null>((resolve) => child.on('exit', resolve));
    try {
      let ready = false;
      for (let i = 0; i < 300 && !ready && child.exitCode === null; i++) {
        ready = await fetch(`http://127.0.0.1:${opsPort}/readyz`).then(
          (r) => r.status === 200,
          () => false,
        );
        if (!ready) await new Promise((r) => setTimeout(r, 100));
      }
      // What it printed is shown when it never became ready.
      expect({ ready, stderr: ready ? '' : stderr }).toEqual({ ready: true, stderr: '' });
      child.kill('SIGTERM');
      expect(await exited).toBe(0);
    } finally {
      child.kill('SIGKILL');
    }
  }, 60_000);
});
