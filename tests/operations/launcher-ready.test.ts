import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { dropDatabase } from '../support/stack';
import { freePort } from '../support/free-port';

const ROOT = path.resolve(__dirname, '..', '..');
const SERVICES = ['gateway', 'account', 'recordings', 'pipeline', 'series', 'ask', 'events', 'web'];

/**
 * `pnpm start` (deploy/launcher.ts) as the README's quick start runs it, on ports, a database, an
 * audio folder and a NATS namespace of its own (the suite's broker), so that a development stack
 * beside it is untouched. The README tells the reader to go on once the launcher prints `every
 * service is up`: the gateway must answer from that moment, not seconds after.
 */
describe('pnpm start: the launcher says every service is up once the API answers', () => {
  const id = randomBytes(4).toString('hex');
  const databaseUrl = (() => {
    const url = new URL(process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/meeting_memory_test');
    url.pathname = `/${url.pathname.slice(1)}_launch${id}`;
    return url.toString();
  })();
  const store = mkdtempSync(path.join(tmpdir(), 'mm-launch-'));
  let child: ChildProcess;
  let out = '';
  let base = '';

  afterAll(async () => {
    if (child && child.exitCode === null && child.signalCode === null) {
      // 'close': the launcher stopped every service and its output pipes are shut.
      const closed = new Promise((r) => child.once('close', r));
      child.kill('SIGTERM');
      await closed;
    }
    await dropDatabase(databaseUrl);
    rmSync(store, { recursive: true, force: true });
  }, 30_000);

  it('answers /healthz and the API at once when the line is printed', async () => {
    const ports: Record<string, string> = {};
    for (const s of SERVICES) ports[s === 'gateway' ? 'PORT' : `${s.toUpperCase()}_PORT`] = String(await freePort());
    ports.OPS_PORT = String(await freePort());
    base = `http://127.0.0.1:${ports.PORT}`;
    child = spawn(process.execPath, ['--import', 'tsx', path.join(ROOT, 'deploy', 'launcher.ts')], {
      cwd: ROOT,
      env: {
        ...process.env,
        ...ports,
        DATABASE_URL: databaseUrl,
        BUS_NAMESPACE: `l${id}.`,
        AUDIO_STORE: `file:${store}`,
        INTERNAL_JWT_SECRET: randomBytes(32).toString('hex'),
        LOCAL_SOCKET_DIR: '',
        GATEWAY_WORKERS: '1',
        LOG_LEVEL: 'warn',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child.stdout?.on('data', (d: Buffer) => (out += d.toString()));
    // The first requests go out in the same turn as the line arrives, as a script waiting for it would send them.
    const answered = new Promise<{ healthz: number | string; openapi: number | string }>((resolve, reject) => {
      const probe = (p: string) =>
        fetch(`${base}${p}`).then(
          (r) => r.status,
          (e: Error & { cause?: { code?: string } }) => e.cause?.code ?? e.message,
        );
      child.stderr?.on('data', (d: Buffer) => {
        const seen = out.includes('every service is up');
        out += d.toString();
        if (!seen && out.includes('every service is up'))
          void Promise.all([probe('/healthz'), probe('/api/v1/openapi.json')]).then(([healthz, openapi]) =>
            resolve({ healthz, openapi }),
          );
      });
      child.once('exit', (code) => reject(new Error(`the launcher exited (${code}): ${out}`)));
    });
    await expect(answered).resolves.toEqual({ healthz: 200, openapi: 200 });
    expect(out).toContain(`every service is up; the API is at ${base}`);
  }, 180_000);
});
