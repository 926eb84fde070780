import { spawn, type ChildProcess } from 'node:child_process';
import { request } from 'node:http';
import { createServer } from 'node:net';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { ensureDatabase, migrateSchema } from '@mm/db';
import { SERVICE_SCHEMAS } from '../support/migrate';
import { dropDatabase } from '../support/stack';

const ROOT = path.resolve(__dirname, '..', '..');
const SERVICES = ['gateway', 'account', 'recordings', 'pipeline', 'series', 'ask', 'events'] as const;
const LOAD_LOOPS = 8;

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });
}

type Outcome = { kind: 'answer'; status: number } | { kind: 'refused' } | { kind: 'failed'; error: string };

/** One GET on a fresh connection: an answer, a refused connection (never accepted), or a failure. */
function get(port: number, pathname: string): Promise<Outcome> {
  return new Promise((resolve) => {
    const req = request({ host: '127.0.0.1', port, path: pathname, agent: false }, (res) => {
      res.resume();
      res.on('end', () => resolve({ kind: 'answer', status: res.statusCode ?? 0 }));
      res.on('error', (e) => resolve({ kind: 'failed', error: String(e) }));
    });
    req.on('error', (e: NodeJS.ErrnoException) =>
      resolve(e.code === 'ECONNREFUSED' ? { kind: 'refused' } : { kind: 'failed', error: `${e.code} ${e.message}` }),
    );
    req.end();
  });
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe.each(SERVICES)('SIGTERM to the %s service under load', (service) => {
  let child: ChildProcess | null = null;
  const ns = `g${randomBytes(4).toString('hex')}`;
  const base = new URL(process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/meeting_memory_test');
  base.pathname = `${base.pathname}_${ns}`;
  const databaseUrl = base.toString();
  const store = mkdtempSync(path.join(tmpdir(), 'mm-drain-'));
  afterAll(async () => {
    child?.kill('SIGKILL');
    await dropDatabase(databaseUrl);
    rmSync(store, { recursive: true, force: true });
  });

  it('answers every request it accepted, says not ready first, and exits 0', async () => {
    await ensureDatabase(databaseUrl);
    await migrateSchema(databaseUrl, SERVICE_SCHEMAS[service].schema, SERVICE_SCHEMAS[service].migrations);
    const port = await freePort();
    // The gateway answers /readyz on its ops port only (the public port has no /readyz).
    const opsPort = service === 'gateway' ? await freePort() : port;
    const exited = new Promise<number | null>((resolve) => {
      child = spawn(process.execPath, ['--import', 'tsx', path.join(ROOT, 'services', service, 'src', 'main.ts')], {
        cwd: ROOT,
        env: {
          ...process.env,
          LOG_LEVEL: 'silent',
          DATABASE_URL: databaseUrl,
          BUS_NAMESPACE: `${ns}.`,
          AUDIO_STORE: `file:${store}`,
          SHUTDOWN_DELAY_SECONDS: '1',
          [service === 'gateway' ? 'PORT' : `${service.toUpperCase()}_PORT`]: String(port),
          OPS_PORT: String(opsPort),
        },
        stdio: 'ignore',
      });
      child.on('exit', (code) => resolve(code));
    });
    for (let i = 0; ; i++) {
      const r = await get(opsPort, '/readyz');
      if (r.kind === 'answer' && r.status === 200) break;
      if (i > 300) throw new Error(`${service} never became ready`);
      await sleep(100);
    }

    // Load: each loop sends requests back to back, like a load balancer, until told "not ready" or refused.
    const outcomes: Outcome[] = [];
    let sigtermAt = 0;
    const loop = async () => {
      for (;;) {
        const r = await get(opsPort, '/readyz');
        outcomes.push(r);
        if (r.kind !== 'answer' || r.status !== 200) return;
      }
    };
    const loops = Array.from({ length: LOAD_LOOPS }, loop);
    await sleep(1000);
    sigtermAt = outcomes.length;
    child!.kill('SIGTERM');
    await Promise.all(loops);
    const code = await exited;

    expect(sigtermAt).toBeGreaterThan(LOAD_LOOPS);
    expect(outcomes.filter((o) => o.kind === 'failed')).toEqual([]);
    const answers = outcomes.filter((o): o is { kind: 'answer'; status: number } => o.kind === 'answer');
    expect(answers.every((a) => a.status === 200 || a.status === 503)).toBe(true);
    // Draining is announced: each loop stopped on a 503 from /readyz, none on a refused connection.
    expect(outcomes.slice(sigtermAt).filter((o) => o.kind === 'answer' && o.status === 503)).toHaveLength(LOAD_LOOPS);
    expect(code).toBe(0);
  }, 60_000);
});
