import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { serviceProcess } from '../../deploy/service-process';
import { freePort } from '../support/free-port';

const ROOT = path.resolve(__dirname, '..', '..');

async function waitListening(child: ChildProcess, output: () => string): Promise<void> {
  const deadline = Date.now() + 60_000;
  while (!output().includes('"msg":"listening"')) {
    if (child.exitCode !== null) throw new Error(`the app exited (${child.exitCode}): ${output()}`);
    if (Date.now() > deadline) throw new Error(`the app did not listen within 60 s: ${output()}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/**
 * `pnpm start` runs the services from their sources under tsx (deploy/launcher.ts, by
 * deploy/service-process.ts). The app's pages are preact JSX in a TypeScript project of their own:
 * started that way, with tsx's cache off so nothing compiled earlier answers, its pages render.
 */
describe('the app as pnpm start runs it (tsx, from the sources)', () => {
  let child: ChildProcess;
  let out = '';
  let base = '';

  beforeAll(async () => {
    const port = await freePort();
    base = `http://127.0.0.1:${port}`;
    // The test database (global-setup), its web schema migrated as the launcher's migrate step does
    // first: the machine's own database may never have been (a fresh machine's never was).
    const env = {
      PATH: process.env.PATH ?? '',
      HOME: process.env.HOME ?? '/tmp',
      DATABASE_URL: process.env.DATABASE_URL!,
      WEB_PORT: String(port),
      TSX_DISABLE_CACHE: '1',
    };
    const migrate = serviceProcess(ROOT, 'web', ['migrate'], env);
    const migrated = spawnSync(migrate.command, migrate.args, { ...migrate.options, encoding: 'utf8' });
    if (migrated.status !== 0) throw new Error(`web migrate failed (${migrated.status}): ${migrated.stderr}`);
    const run = serviceProcess(ROOT, 'web', [], env);
    child = spawn(run.command, run.args, { ...run.options, stdio: ['ignore', 'pipe', 'pipe'] });
    child.stdout?.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr?.on('data', (d: Buffer) => (out += d.toString()));
    await waitListening(child, () => out);
  }, 90_000);

  afterAll(async () => {
    if (child.exitCode === null) {
      // 'close': the process ended and its output pipes are shut (jest waits for open handles).
      const exited = new Promise((r) => child.once('close', r));
      child.kill('SIGTERM');
      await exited;
    }
  });

  it('renders the sign-in page (200, HTML with its form), not a 500', async () => {
    const res = await fetch(`${base}/app/sign-in`);
    const html = await res.text();
    expect({ status: res.status, type: res.headers.get('content-type') }).toEqual({
      status: 200,
      type: expect.stringMatching(/^text\/html/),
    });
    expect(html).toMatch(/^<!doctype html>/);
    expect(html).toContain('<title>Sign in · Meeting Memory</title>');
    expect(html).toMatch(/<form[^>]*method="post"/i);
    // An empty icon: a browser does not ask /favicon.ico (404, an error in its console).
    expect(html).toContain('<link rel="icon" href="data:,"/>');
    expect(out).not.toContain('React is not defined');
  });

  it('renders the Persian sign-in page, right to left', async () => {
    const res = await fetch(`${base}/app/sign-in`, { headers: { 'Accept-Language': 'fa' } });
    const html = await res.text();
    expect(res.status).toBe(200);
    expect(html).toContain('dir="rtl"');
  });
});
