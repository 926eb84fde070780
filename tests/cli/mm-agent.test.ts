import { spawn } from 'node:child_process';
import { copyFileSync, existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { startStack, type Stack, type TestToken } from '../support/stack';
import { speakMeeting } from '../support/speak-meeting';
import { REPO, runMm, type MmRun } from '../support/run-mm';
import { version } from '../../services/cli/package.json';

/**
 * `pnpm mm` as an agent drives it, against the real stack: every file of a submit has its own
 * result, a wait stops at NAMING with the way on, a 429 says how long to wait, usage errors answer
 * the JSON error shape, and local, URL and connection problems name what is wrong, refused before
 * any request when they can be.
 */
let stack: Stack;
let token: TestToken;
let dir: string;
let env: Record<string, string>;
/** MM_URL of a port nothing listens on: a command that sent a request would exit 10, not 2. */
let closedUrl: string;

beforeAll(async () => {
  stack = await startStack({ NAMING_AUTO_WAIT_SECONDS: '1' }, { pipeline: true });
  const account = await stack.admin.account({ balanceMinutes: 100 });
  token = await stack.admin.token(account.id, ['recordings:read', 'recordings:write', 'account:write']);
  dir = mkdtempSync(path.join(tmpdir(), 'mm-agent-'));
  const meeting = await speakMeeting([
    ['slt', 'Good morning. The new release is almost ready.'],
    ['rms', 'We decided to ship the release on Friday.'],
  ]);
  copyFileSync(meeting.path, path.join(dir, 'meeting.wav'));
  writeFileSync(path.join(dir, 'notaudio.sh'), '#!/bin/sh\necho hello\n');
  env = { MM_URL: stack.url, MM_TOKEN: token.value, MM_POLL_SECONDS: '1', MM_CONFIG: path.join(dir, 'none.json') };
  closedUrl = `http://127.0.0.1:${await closedPort()}`;
}, 60_000);
afterAll(async () => {
  await stack.stop();
});

describe('mm submit with several files', () => {
  it('lists the accepted meeting beside the refused file and exits with the failure', async () => {
    const json = await runMm(['submit', 'meeting.wav', 'notaudio.sh', '--naming', 'skip', '--json'], env, dir);
    expect(json.code).toBe(6);
    expect(JSON.parse(json.stdout)).toEqual([
      {
        file: 'meeting.wav',
        recording: expect.objectContaining({ id: expect.any(String), status: 'QUEUED' }),
        exitCode: 0,
      },
      { file: 'notaudio.sh', error: expect.objectContaining({ code: 'VALIDATION' }), exitCode: 6 },
    ]);

    const text = await runMm(['submit', 'meeting.wav', 'notaudio.sh', '--naming', 'skip'], env, dir);
    expect(text.code).toBe(6);
    expect(text.stdout).toMatch(/^QUEUED \S+ meeting\.wav \(\d+ min\)$/m);
    expect(text.stdout).toMatch(/^error VALIDATION notaudio\.sh: /m);
    // Piped progress: one line per tenth, 100% once.
    expect(text.stderr.match(/^meeting\.wav: uploaded 100% /gm)).toHaveLength(1);
  }, 60_000);
});

describe('mm at NAMING', () => {
  it('stops a wait the service holds for a person, with the naming URL and the commands that go on', async () => {
    const namer = await stack.admin.account({ balanceMinutes: 20 });
    const t = await stack.admin.token(namer.id, ['recordings:read', 'recordings:write', 'account:write']);
    const set = await stack.api
      .patch('/api/v1/account/settings')
      .set('Authorization', `Bearer ${t.value}`)
      .send({ speakerNamingMode: 'FORCE_ON' });
    expect(set.status).toBe(200);
    const e = { ...env, MM_TOKEN: t.value };

    const sent = await runMm(['submit', 'meeting.wav', '--wait', '--json'], e, dir);
    expect(sent.code).toBe(12);
    const [item] = JSON.parse(sent.stdout);
    const id: string = item.recording.id;
    expect(item.final).toMatchObject({ status: 'NAMING', naming: { url: expect.any(String) } });
    expect(item.next).toEqual([`mm skip-naming ${id}`, `mm wait ${id}`]);
    expect(sent.stderr).toContain(item.final.naming.url);
    expect(sent.stderr).toContain(`mm skip-naming ${id}`);

    const skipped = await runMm(['skip-naming', id, '--json'], e);
    expect(skipped.code).toBe(0);
    expect(['GENERATING', 'READY']).toContain(JSON.parse(skipped.stdout).status);
    const waited = await runMm(['wait', id], e);
    expect([waited.code, waited.stdout]).toEqual([0, expect.stringMatching(`^READY ${id}`)]);

    const [again, retry] = await Promise.all([
      runMm(['skip-naming', id, '--json'], e),
      runMm(['retry', id, '--json'], e),
    ]);
    expect([again.code, JSON.parse(again.stdout).error.code]).toEqual([9, 'NOT_NAMING']);
    expect([retry.code, JSON.parse(retry.stdout).error.code]).toEqual([9, 'NOT_FAILED']);
  }, 180_000);
});

describe('mm errors', () => {
  it('says how long to wait after a 429, in the message and in JSON', async () => {
    const account = await stack.admin.account({ balanceMinutes: 10 });
    const t = await stack.admin.token(account.id, ['recordings:write']);
    // The submit class allows 30 requests per window; the next one is refused with Retry-After.
    for (let i = 0; i < 30; i++)
      await stack.api
        .post('/api/v1/recordings/rec_none/naming')
        .set('Authorization', `Bearer ${t.value}`)
        .send({ action: 'skip' });
    const e = { ...env, MM_TOKEN: t.value };
    const [json, text, skip] = await inPairs([
      () => runMm(['submit', 'meeting.wav', '--json'], e, dir),
      () => runMm(['submit', 'meeting.wav'], e, dir),
      () => runMm(['skip-naming', 'rec_none', '--json'], e),
    ]);
    expect([json.code, text.code, skip.code]).toEqual([8, 8, 8]);
    const [item] = JSON.parse(json.stdout);
    expect(item.error).toMatchObject({ code: 'RATE_LIMITED', retryAfterSeconds: expect.any(Number) });
    expect(item.error.retryAfterSeconds).toBeGreaterThan(0);
    expect(text.stdout).toMatch(/^error RATE_LIMITED meeting\.wav: .*\(retry after \d+ (s|min)\)$/m);
    expect(JSON.parse(skip.stdout).error).toMatchObject({
      message: expect.stringMatching(/\(retry after \d+ (s|min)\)$/),
      retryAfterSeconds: expect.any(Number),
    });
  }, 60_000);

  it('answers usage errors in the JSON error shape with --json anywhere, before any request', async () => {
    const cases: [string[], string, RegExp][] = [
      [['bundle', '--json'], 'USAGE', /missing required argument 'id'/],
      [['--json', 'list', '--foo'], 'USAGE', /unknown option '--foo'/],
      [['--json', 'frob'], 'USAGE', /unknown command 'frob'/],
      [['ask', 'rec_x', '--json'], 'USAGE', /^no question given/],
      [['submit', '/nonexistent.wav', 'meeting.wav', '--json'], 'BAD_FILE', /\/nonexistent\.wav: no such file/],
      [['submit', 'meeting.wav', '--kind', 'PARTY', '--json'], 'USAGE', /'PARTY' is invalid.*MEETING, LECTURE/],
      [['submit', 'meeting.wav', '--naming', 'never', '--json'], 'USAGE', /'never' is invalid.*default, skip/],
      [['list', '--limit', 'ten', '--json'], 'USAGE', /not a whole number/],
    ];
    const runs = await inPairs(
      cases.map(
        ([args]) =>
          () =>
            runMm(args, { ...env, MM_URL: closedUrl }, dir),
      ),
    );
    for (const [i, [args, code, message]] of cases.entries()) {
      expect({ args, code: runs[i].code }).toEqual({ args, code: 2 });
      const body = JSON.parse(runs[i].stdout);
      expect({ args, body }).toEqual({
        args,
        body: { error: expect.objectContaining({ code, message: expect.stringMatching(message) }), exitCode: 2 },
      });
    }
    const plain = await runMm(['submit', '/nonexistent.wav'], env, dir);
    expect(plain.code).toBe(2);
    expect(plain.stderr).toMatch(/^error BAD_FILE: \/nonexistent\.wav: no such file/m);
  }, 120_000);

  it('refuses a login without a token (empty standard input) as a usage error, saving nothing', async () => {
    const file = path.join(dir, 'login-none', 'credentials.json');
    const e = { MM_CONFIG: file, MM_URL: '', MM_TOKEN: '' };
    const [text, json] = await Promise.all([
      runMmWithInput(['login', '--url', stack.url], e, ''),
      runMmWithInput(['login', '--url', stack.url, '--json'], e, ''),
    ]);
    expect([text.code, text.stderr]).toEqual([2, expect.stringMatching(/^error USAGE: no token given/m)]);
    expect(json.code).toBe(2);
    expect(JSON.parse(json.stdout).error).toMatchObject({
      code: 'USAGE',
      message: expect.stringMatching(/^no token given/),
    });
    expect(existsSync(file)).toBe(false);
    const piped = await runMmWithInput(['login', '--url', stack.url, '--json'], e, `${token.value}\n`);
    expect([piped.code, JSON.parse(piped.stdout).whoami.token.id]).toEqual([0, token.id]);
  }, 60_000);

  it('names the URL and the cause when the API cannot be reached or the URL is not the API', async () => {
    const broken = path.join(dir, 'broken.json');
    writeFileSync(broken, '{oops');
    const [refused, wrong, notUrl, badFile, badPoll] = await inPairs([
      () => runMm(['whoami', '--json'], { ...env, MM_URL: closedUrl }),
      () => runMm(['whoami', '--json'], { ...env, MM_URL: `${stack.url}/wrong` }),
      () => runMm(['whoami', '--json'], { ...env, MM_URL: 'not-a-url' }),
      () => runMm(['whoami', '--json'], { MM_CONFIG: broken, MM_URL: '', MM_TOKEN: '' }),
      () => runMm(['whoami', '--json'], { ...env, MM_POLL_SECONDS: 'soon' }),
    ]);
    expect(refused.code).toBe(10);
    expect(JSON.parse(refused.stdout).error).toMatchObject({
      code: 'UNREACHABLE',
      message: expect.stringMatching(new RegExp(`^cannot reach ${closedUrl}/api/v1: .*ECONNREFUSED`)),
      details: { url: `${closedUrl}/api/v1`, cause: 'ECONNREFUSED' },
    });
    expect(wrong.code).toBe(2);
    expect(JSON.parse(wrong.stdout).error).toMatchObject({
      code: 'NOT_THE_API',
      message: expect.stringContaining(`${stack.url}/wrong/api/v1 does not look like the Meeting Memory API`),
    });
    for (const [r, names] of [
      [notUrl, 'MM_URL is not a URL: "not-a-url"'],
      [badFile, `the login file ${broken} cannot be used`],
      [badPoll, 'MM_POLL_SECONDS must be a positive number'],
    ] as const) {
      expect(r.code).toBe(2);
      expect(JSON.parse(r.stdout).error).toMatchObject({ code: 'CONFIG', message: expect.stringContaining(names) });
    }
  }, 60_000);

  it('tells its version', async () => {
    const r = await runMm(['--version'], env);
    expect([r.code, r.stdout.trim()]).toEqual([0, version]);
  });
});

/** Runs the jobs two at a time (the machine is shared), answering in order. */
async function inPairs<T>(jobs: (() => Promise<T>)[]): Promise<T[]> {
  const out: T[] = [];
  for (let i = 0; i < jobs.length; i += 2) out.push(...(await Promise.all(jobs.slice(i, i + 2).map((j) => j()))));
  return out;
}

/** `pnpm mm ARGS` with `input` on standard input, then its end (runMm leaves the input open). */
function runMmWithInput(args: string[], env: Record<string, string>, input: string): Promise<MmRun> {
  return new Promise((resolve, reject) => {
    const child = spawn('pnpm', ['-C', REPO, 'mm', ...args], { env: { ...process.env, ...env } });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c) => (stdout += c));
    child.stderr.on('data', (c) => (stderr += c));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code: code ?? -1, stdout, stderr }));
    child.stdin.end(input);
  });
}

/** A local port nothing listens on. */
async function closedPort(): Promise<number> {
  const server = createServer().listen(0, '127.0.0.1');
  await new Promise((r) => server.once('listening', r));
  const { port } = server.address() as { port: number };
  await new Promise((r) => server.close(r));
  return port;
}
