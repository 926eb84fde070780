import { spawn } from 'node:child_process';
import path from 'node:path';

const ROOT = path.resolve(__dirname, '..', '..');
const SERVICES = ['gateway', 'account', 'recordings', 'pipeline', 'series', 'ask', 'events'] as const;

/** Starts a service as production does (its own process), with only `env`; resolves with how it ended. */
function startWith(
  service: string,
  env: Record<string, string>,
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', path.join(ROOT, 'services', service, 'src', 'main.ts')], {
      cwd: ROOT,
      env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '/tmp', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), 30_000);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

const PRODUCTION_OK = {
  NODE_ENV: 'production',
  DATABASE_URL: 'postgres://nobody@127.0.0.1:1/none',
  NATS_URL: 'nats://127.0.0.1:1',
  REDIS_URL: 'redis://127.0.0.1:1',
};

describe.each(SERVICES)('the %s service checks its configuration before anything else', (service) => {
  it('exits non-zero with one line naming a bad variable (DATABASE_URL=mysql://…)', async () => {
    const r = await startWith(service, { DATABASE_URL: 'mysql://db/x' });
    expect(r.code).not.toBe(0);
    expect(r.stdout).toBe('');
    expect(r.stderr.trimEnd().split('\n')).toEqual([
      expect.stringMatching(
        new RegExp(`^${service} failed to start: .*DATABASE_URL must be a postgres or postgresql URL`),
      ),
    ]);
  });

  it('exits non-zero with one line naming a missing production variable (INTERNAL_JWT_SECRET)', async () => {
    const r = await startWith(service, PRODUCTION_OK);
    expect(r.code).not.toBe(0);
    expect(r.stdout).toBe('');
    const lines = r.stderr.trimEnd().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/INTERNAL_JWT_SECRET must be set/);
  });
});
