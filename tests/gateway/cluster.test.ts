/**
 * The gateway as a cluster (GATEWAY_WORKERS=2), as `node services/gateway/src/main.ts` runs it:
 * both workers serve the public port, a killed worker is replaced, the primary's /readyz speaks
 * for all of them, and SIGTERM drains every worker before the primary exits 0.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { migrateSchema } from '@mm/db';
import { SERVICE_SCHEMAS } from '../support/migrate';
import { randomBytes } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { request } from 'node:http';
import { createServer } from 'node:net';
import path from 'node:path';

const ROOT = path.resolve(__dirname, '..', '..');

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });
}

/** One GET on a fresh connection (so the cluster hands each one to the next worker); 0 when refused or no answer in 5 s. */
function status(port: number, pathname: string): Promise<number> {
  return new Promise((resolve) => {
    const req = request({ host: '127.0.0.1', port, path: pathname, agent: false }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
    });
    req.on('error', () => resolve(0));
    req.setTimeout(5000, () => req.destroy());
    req.end();
  });
}

/** The primary's worker processes: its children running the gateway's main.ts. */
function workersOf(primary: number): number[] {
  const pids: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      if (ppid === primary && readFileSync(`/proc/${entry}/cmdline`, 'utf8').includes('gateway/src/main.ts'))
        pids.push(Number(entry));
    } catch {
      // the process ended while we looked
    }
  }
  return pids.sort((a, b) => a - b);
}

/** CPU ticks (user + system) a process has used. */
function cpuTicks(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return Number(fields[11]) + Number(fields[12]);
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function until<T>(what: string, probe: () => Promise<T | null> | T | null, timeoutMs = 30_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== null) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(100);
  }
}

describe('the gateway with two workers', () => {
  let child: ChildProcess | null = null;
  afterAll(() => {
    child?.kill('SIGKILL');
    if (child?.pid) for (const w of workersOf(child.pid)) process.kill(w, 'SIGKILL');
  });

  it('serves from both workers, replaces a dead one, and drains all of them on SIGTERM', async () => {
    // The gateway's start only checks its schema: the migration step first, as in production.
    const { schema, migrations } = SERVICE_SCHEMAS.gateway;
    await migrateSchema(
      process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/meeting_memory_test',
      schema,
      migrations,
    );
    const port = await freePort();
    const opsPort = await freePort();
    const exited = new Promise<number | null>((resolve) => {
      child = spawn(process.execPath, ['--import', 'tsx', path.join(ROOT, 'services', 'gateway', 'src', 'main.ts')], {
        cwd: ROOT,
        env: {
          ...process.env,
          LOG_LEVEL: 'silent',
          GATEWAY_WORKERS: '2',
          BUS_NAMESPACE: `c${randomBytes(4).toString('hex')}.`,
          PORT: String(port),
          OPS_PORT: String(opsPort),
          SHUTDOWN_DELAY_SECONDS: '1',
        },
        stdio: 'ignore',
      });
      child.on('exit', (code) => resolve(code));
    });
    const primary = child!.pid!;
    await until(
      'the cluster to be ready',
      async () => ((await status(opsPort, '/readyz')) === 200 ? true : null),
      60_000,
    );
    const workers = workersOf(primary);
    expect(workers).toHaveLength(2);

    // Both workers do the work: each one's CPU time grows while fresh connections come in.
    const before = workers.map(cpuTicks);
    const answers = [];
    for (let i = 0; i < 60; i++)
      answers.push(...(await Promise.all(Array.from({ length: 10 }, () => status(port, '/healthz')))));
    expect(answers.every((s) => s === 200)).toBe(true);
    const used = workers.map((w, i) => cpuTicks(w) - before[i]);
    expect(used.every((ticks) => ticks > 0)).toBe(true);
    // The primary's /metrics sums the workers' registries.
    expect(await status(opsPort, '/metrics')).toBe(200);

    // A worker that dies is replaced; the other one serves meanwhile.
    // (A connection handed to the worker in the instant it died is lost with it, as with any
    // process; once the primary has seen the death, new connections go to the survivor.)
    process.kill(workers[0], 'SIGKILL');
    await sleep(300);
    expect(await status(port, '/healthz')).toBe(200);
    expect(workersOf(primary)).toEqual([workers[1]]); // the replacement waits a second after a quick death
    const replaced = await until('a new worker', () => {
      const now = workersOf(primary);
      return now.length === 2 && !now.includes(workers[0]) ? now : null;
    });
    expect(replaced).toContain(workers[1]);
    await until('readiness after the restart', async () => ((await status(opsPort, '/readyz')) === 200 ? true : null));

    // SIGTERM: not ready at once, still serving during the delay, then every worker and the primary exit.
    child!.kill('SIGTERM');
    await until(
      'readiness to answer 503',
      async () => ((await status(opsPort, '/readyz')) === 503 ? true : null),
      2000,
    );
    expect(await status(port, '/healthz')).toBe(200);
    expect(await exited).toBe(0);
    expect(workersOf(primary)).toEqual([]);
    for (const w of replaced) expect(() => process.kill(w, 0)).toThrow();
  }, 120_000);
});
