import { mkdtempSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { startStack, type Stack, type TestToken } from '../support/stack';
import { runMm } from '../support/run-mm';
import { version } from '../../services/cli/package.json';

/**
 * Where `pnpm mm` sends its token, against the real stack: a saved token goes only to the URL it
 * was saved with; URLs with credentials, a query or a fragment, and the admin API's, are refused
 * before any request without repeating a password.
 */
let stack: Stack;
let token: TestToken;
let dir: string;
/** A server that records every request: the token must never reach it. */
let spy: Server;
let spyUrl: string;
const spied: IncomingMessage[] = [];

beforeAll(async () => {
  stack = await startStack();
  const account = await stack.admin.account({ balanceMinutes: 10 });
  token = await stack.admin.token(account.id, ['recordings:read']);
  dir = mkdtempSync(path.join(tmpdir(), 'mm-config-'));
  spy = createServer((req, res) => {
    spied.push(req);
    res.writeHead(500).end();
  }).listen(0, '127.0.0.1');
  await new Promise((r) => spy.once('listening', r));
  spyUrl = `http://127.0.0.1:${(spy.address() as { port: number }).port}`;
}, 60_000);
afterAll(async () => {
  await new Promise((r) => spy.close(r));
  await stack.stop();
});

describe('a saved login', () => {
  it('never sends the saved token to another MM_URL: CONFIG naming the URL it belongs to', async () => {
    const file = path.join(dir, 'saved.json');
    writeFileSync(file, JSON.stringify({ url: stack.url, token: token.value }), { mode: 0o600 });
    const e = { MM_CONFIG: file, MM_TOKEN: '' };
    const [other, same] = await Promise.all([
      runMm(['whoami', '--json'], { ...e, MM_URL: spyUrl }),
      runMm(['whoami', '--json'], { ...e, MM_URL: `${stack.url}/api/v1/` }),
    ]);
    expect(other.code).toBe(2);
    expect(JSON.parse(other.stdout).error).toMatchObject({
      code: 'CONFIG',
      message: expect.stringMatching(new RegExp(`^the saved token belongs to ${stack.url}.*set MM_TOKEN`)),
    });
    expect(spied).toHaveLength(0);
    // The same API root, written another way, is the saved one's.
    expect([same.code, JSON.parse(same.stdout).token.id]).toEqual([0, token.id]);
  }, 60_000);
});

describe('a base URL', () => {
  it('with a password, a query or a fragment is CONFIG (exit 2), the password never repeated', async () => {
    const file = path.join(dir, 'with-password.json');
    const withPassword = `${spyUrl.replace('//', '//user:s3cret@')}`;
    writeFileSync(file, JSON.stringify({ url: withPassword, token: token.value }), { mode: 0o600 });
    const plainFile = path.join(dir, 'plain.json');
    writeFileSync(plainFile, JSON.stringify({ url: spyUrl, token: token.value }), { mode: 0o600 });
    const runs = await Promise.all([
      runMm(['whoami', '--json'], { MM_URL: withPassword, MM_TOKEN: token.value }),
      runMm(['whoami'], { MM_URL: withPassword, MM_TOKEN: token.value }),
      runMm(['login', '--url', withPassword, '--token', token.value, '--json'], {
        MM_CONFIG: path.join(dir, 'x.json'),
      }),
      runMm(['whoami', '--json'], { MM_CONFIG: file, MM_URL: '', MM_TOKEN: '' }),
      runMm(['whoami', '--json'], { MM_URL: `${spyUrl}/?token=x`, MM_TOKEN: token.value }),
      runMm(['whoami', '--json'], { MM_URL: `${spyUrl}/#top`, MM_TOKEN: token.value }),
      // A saved login for another URL and no MM_TOKEN: the password is what is wrong, said first.
      runMm(['whoami', '--json'], { MM_CONFIG: plainFile, MM_URL: withPassword, MM_TOKEN: '' }),
    ]);
    for (const r of runs) {
      expect([r.code, r.stdout + r.stderr]).toEqual([2, expect.stringMatching(/CONFIG/)]);
      expect(r.stdout + r.stderr).not.toContain('s3cret');
    }
    expect(JSON.parse(runs[0].stdout).error.message).toMatch(/^MM_URL must not hold a user name or password/);
    expect(JSON.parse(runs[4].stdout).error.message).toMatch(/^MM_URL must not hold a query string/);
    expect(JSON.parse(runs[5].stdout).error.message).toMatch(/^MM_URL must not hold a fragment/);
    expect(JSON.parse(runs[6].stdout).error.message).toMatch(/^MM_URL must not hold a user name or password/);
    expect(spied).toHaveLength(0);
  }, 60_000);

  it('into the admin API is NOT_THE_API (exit 2) with the hint, not a 401', async () => {
    const r = await runMm(['login', '--url', `${stack.url}/admin/v1`, '--token', token.value, '--json'], {
      MM_CONFIG: path.join(dir, 'admin.json'),
    });
    expect(r.code).toBe(2);
    expect(JSON.parse(r.stdout).error).toMatchObject({
      code: 'NOT_THE_API',
      message: expect.stringContaining("give the gateway's address"),
    });
    // The app's pages take no token: a URL into them is not the API either (not a 403 TOKEN_NOT_ACCEPTED).
    const app = await runMm(['whoami', '--json'], { MM_URL: `${stack.url}/app`, MM_TOKEN: token.value });
    expect([app.code, JSON.parse(app.stdout).error]).toEqual([
      2,
      expect.objectContaining({ code: 'NOT_THE_API', message: expect.stringContaining('points into the app') }),
    ]);
  }, 60_000);
});

describe('mm events --help', () => {
  it('says --limit is a page size and every page is read until caught up', async () => {
    const r = await runMm(['events', '--help'], {});
    expect(r.stdout.replace(/\s+/g, ' ')).toMatch(/--limit <n> page size .*reads every page until caught up/);
  });
});

describe('mm --version', () => {
  it('answers {"version"} with --json', async () => {
    const r = await runMm(['--version', '--json'], {});
    expect([r.code, JSON.parse(r.stdout)]).toEqual([0, { version }]);
  });
});
