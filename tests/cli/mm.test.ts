import { copyFileSync, mkdtempSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { startStack, type Stack, type TestToken } from '../support/stack';
import { silence, speakMeeting, type ScriptTurn } from '../support/speak-meeting';
import { runMm } from '../support/run-mm';
import { waitForEvent } from '../support/wait';
import { tokenWhoseMeetingsWaitForNames } from '../support/naming';
import { inTmux, pnpmMmIn } from './tmux-terminal';

/**
 * `pnpm mm` against the real stack and engines: `submit --wait` in a real terminal (tmux) shows a
 * progress bar that advances and the final READY line; `ask --json` is JSON; each kind of failure
 * exits with its documented code (services/cli/src/domain/exit-codes.ts).
 */
const SCRIPT: ScriptTurn[] = [
  ['slt', 'Good morning. The new release is almost ready.'],
  ['rms', 'We decided to ship the release on Friday.'],
];

let stack: Stack;
let token: TestToken;
let dir: string;
let env: Record<string, string>;
let readyId: string;
let accountId: string;
/** A second meeting of the same words, sent without a terminal. */
let secondId: string;

beforeAll(async () => {
  // A low price per character makes an Ask cost more than one minute (PRICE_ABOVE_MAX reachable).
  stack = await startStack({ NAMING_AUTO_WAIT_SECONDS: '1', ASK_CHARS_PER_MINUTE: '50' }, { pipeline: true });
  const account = await stack.admin.account({ balanceMinutes: 200 });
  accountId = account.id;
  token = await stack.admin.token(account.id, [
    'recordings:read',
    'recordings:write',
    'recordings:query',
    'account:read',
  ]);
  dir = mkdtempSync(path.join(tmpdir(), 'mm-cli-'));
  copyFileSync((await speakMeeting(SCRIPT)).path, path.join(dir, 'meeting.wav'));
  env = {
    MM_URL: stack.url,
    MM_TOKEN: token.value,
    MM_POLL_SECONDS: '1',
    MM_CONFIG: path.join(dir, 'credentials.json'),
  };
}, 60_000);
afterAll(async () => {
  await stack.stop();
});

/** `pnpm mm` in the test folder with these variables, as a shell command. */
const mmIn = (vars: Record<string, string>) => pnpmMmIn(dir, vars);

describe('mm in a terminal', () => {
  it('submit --wait shows a progress bar that advances, then the READY line', async () => {
    const percents = new Set<number>();
    const screen = await inTmux(`${mmIn(env)} submit meeting.wav --wait --skip-naming`, (shown) => {
      for (const m of shown.matchAll(/meeting\.wav \[[█░]+\] (\d+)%/g)) percents.add(Number(m[1]));
    });
    expect(screen).toMatch(/EXIT=0/);
    const ready = screen.match(/^READY (\S+) meeting\.wav \(\d+ min\)$/m);
    expect(ready).not.toBeNull();
    readyId = ready![1];
    expect(percents.size).toBeGreaterThanOrEqual(2);
    expect(Math.max(...percents)).toBe(100);
    expect(Math.min(...percents)).toBeLessThan(100);
  }, 240_000);

  it('series create and list, and quote, in a terminal; show reads one series', async () => {
    expect(readyId).toBeDefined();
    const t = await stack.admin.token(accountId, ['series:read', 'series:write', 'recordings:query']);
    const e = { ...env, MM_TOKEN: t.value };
    const screen = await inTmux(
      `${mmIn(e)} series create 'Weekly sync' --title-style TOPIC && ${mmIn(e)} series list && ${mmIn(e)} quote ${readyId}`,
    );
    expect(screen).toMatch(/EXIT=0/);
    const id = /^created (\S+) Weekly sync \(owner\)$/m.exec(screen)![1];
    expect(screen).toMatch(new RegExp(`^${id} Weekly sync \\(owner, 0 meetings\\)$`, 'm'));
    expect(screen).toMatch(new RegExp(`^\\d+ min to ask ${readyId}$`, 'm'));
    const shown = await runMm(['series', 'show', id, '--json'], e);
    expect(JSON.parse(shown.stdout).series).toMatchObject({ id, name: 'Weekly sync', titleStyle: 'TOPIC' });
    // A token without series:write is told which scope the refused command needs.
    const refused = await runMm(['series', 'create', 'Nope', '--json'], env);
    expect(JSON.parse(refused.stdout).error).toMatchObject({
      code: 'TOKEN_SCOPE',
      message: expect.stringMatching(/needs the scope series:write/),
      details: { requiredScopes: ['series:write'] },
    });
  }, 120_000);

  it('a wait at NAMING stops in the terminal with the naming link, the deadline and the two ways on', async () => {
    const namer = await tokenWhoseMeetingsWaitForNames(stack, ['recordings:read', 'recordings:write']);
    const screen = await inTmux(`${mmIn({ ...env, MM_TOKEN: namer.value })} submit meeting.wav --wait`);
    expect(screen).toMatch(/EXIT=12/);
    const id = /^NAMING (\S+) meeting\.wav/m.exec(screen)![1];
    expect(screen).toMatch(
      /waits for speaker names until \S+ \(then it goes on without names\): open \S+\/naming to name them, or go on without/,
    );
    expect(screen).toContain(`mm skip-naming ${id} && mm wait ${id}`);
    expect(screen).toMatch(/--skip-naming never stops here/);
    const on = await runMm(['wait', id, '--skip-naming'], { ...env, MM_TOKEN: namer.value });
    expect([on.code, on.stdout]).toEqual([0, expect.stringMatching(`^READY ${id}`)]);
  }, 240_000);

  it('without a terminal prints plain lines; ask --json parses as JSON with citations as turn times', async () => {
    expect(readyId).toBeDefined();
    const asked = await runMm(['ask', readyId, 'When will the release ship?', '--json'], env);
    expect(asked.code).toBe(0);
    const answer = JSON.parse(asked.stdout);
    expect(typeof answer.answer).toBe('string');
    expect(answer.minutes).toBeGreaterThan(0);
    expect(answer.citations.length).toBeGreaterThanOrEqual(1);

    const text = await runMm(['ask', readyId, 'When will the release ship?'], env);
    expect(text.code).toBe(0);
    // Each citation quotes the words said, as the bundle holds them.
    expect(text.stdout).toMatch(/^\[1\] \d\d:\d\d (speaker_\d+|unknown speaker).*: ".+"$/m);
    expect(answer.citations[0]).toMatchObject({ quote: expect.any(String), endMs: expect.any(Number) });
    expect(text.stdout).toMatch(/charged \d+ min/);

    const sent = await runMm(['submit', 'meeting.wav'], env, dir);
    expect(sent.code).toBe(0);
    expect(sent.stderr).toMatch(/^meeting\.wav: uploaded 100% /m);
    // The first share is in bytes (`0% (180 B/84 kB)`), never a whole kB rounded up from a few bytes.
    expect(sent.stderr).toMatch(/^meeting\.wav: uploaded 0% \(\d+ B\/\d+(\.\d)? kB\)$/m);
    expect(sent.stderr).toMatch(/^meeting\.wav: QUEUED \S+$/m);
    expect(sent.stdout).toMatch(/^QUEUED \S+ meeting\.wav \(\d+ min\)$/m);
    secondId = sent.stdout.match(/^QUEUED (\S+) meeting\.wav/m)![1];

    await waitForEvent(stack, token.value, readyId, 'recording.ready');
    const [list, search, md, events, eventsJson] = await Promise.all([
      runMm(['list'], env),
      runMm(['search', 'release', '--json'], env),
      runMm(['bundle', readyId, '--markdown'], env),
      runMm(['events'], env),
      runMm(['events', '--json'], env),
    ]);
    expect(list.stdout).toContain(readyId);
    expect(JSON.parse(search.stdout).items.map((i: { id: string }) => i.id)).toContain(readyId);
    expect(md.stdout.startsWith('# ')).toBe(true);
    expect(events.stdout).toMatch(new RegExp(`recording\\.ready ${readyId}`));
    expect(events.stderr).toMatch(/^next: --after \S+/m);
    const lines = eventsJson.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(lines.at(-1)).toEqual({ nextCursor: expect.any(String) });
    expect(lines.slice(0, -1).map((l) => l.event.type)).toContain('recording.ready');
  }, 120_000);

  it('search pages with --cursor, says next: as list does, and filters by --kind, --from and --to', async () => {
    expect(secondId).toBeDefined();
    expect((await runMm(['wait', secondId, '--skip-naming'], env)).code).toBe(0);
    const first = await runMm(['search', 'release', '--limit', '1'], env);
    expect(first.code).toBe(0);
    const cursor = first.stdout.match(/^next: --cursor (\S+)$/m)?.[1];
    expect(cursor).toBeDefined();
    const [second, lecture, later, earlier] = await Promise.all([
      runMm(['search', 'release', '--limit', '1', '--cursor', cursor!, '--json'], env),
      runMm(['search', 'release', '--kind', 'LECTURE', '--json'], env),
      runMm(['search', 'release', '--from', '2999-01-01T00:00:00Z', '--json'], env),
      runMm(['search', 'release', '--to', '2999-01-01T00:00:00Z', '--kind', 'MEETING', '--json'], env),
    ]);
    const ids = (r: { stdout: string }) => JSON.parse(r.stdout).items.map((i: { id: string }) => i.id);
    const firstId = first.stdout.split(' ')[0];
    expect(ids(second)).toEqual([[readyId, secondId].find((id) => id !== firstId)]);
    expect([ids(lecture), ids(later)]).toEqual([[], []]);
    expect(ids(earlier).sort()).toEqual([readyId, secondId].sort());
  }, 120_000);

  it('login keeps the URL and token in a file only its owner can read', async () => {
    const file = path.join(dir, 'login', 'credentials.json');
    const login = await runMm(['login', '--url', stack.url, '--token', token.value], {
      MM_CONFIG: file,
      MM_URL: '',
      MM_TOKEN: '',
    });
    expect(login.code).toBe(0);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    const who = await runMm(['whoami', '--json'], { MM_CONFIG: file, MM_URL: '', MM_TOKEN: '' });
    expect(JSON.parse(who.stdout).token.id).toBe(token.id);
  }, 60_000);

  it('exits with the documented code of each kind of failure, with the contract code and message', async () => {
    const account = await stack.admin.account({ balanceMinutes: 0 });
    const readOnly = await stack.admin.token(account.id, ['recordings:read']);
    const writer = await stack.admin.token(account.id, ['recordings:write']);
    const cases: [string[], Record<string, string>, number, string][] = [
      [['nope'], env, 2, ''],
      [['whoami'], { ...env, MM_TOKEN: 'svc_notatoken' }, 3, 'TOKEN_INVALID'],
      [['ask', readyId, 'why?'], { ...env, MM_TOKEN: readOnly.value }, 4, 'TOKEN_SCOPE'],
      [['status', 'no-such-meeting'], env, 5, 'NOT_FOUND'],
      [['ask', readyId, ' '], env, 6, 'VALIDATION'],
      [['ask', readyId, 'When?', '--max-minutes', '1'], env, 7, 'PRICE_ABOVE_MAX'],
      [['submit', 'meeting.wav'], { ...env, MM_TOKEN: writer.value }, 7, 'INSUFFICIENT_MINUTES'],
    ];
    // Independent runs: two at a time keeps the file short without crowding the machine.
    const runs: Awaited<ReturnType<typeof runMm>>[] = [];
    for (let i = 0; i < cases.length; i += 2) {
      runs.push(...(await Promise.all(cases.slice(i, i + 2).map(([args, e]) => runMm([...args, '--json'], e, dir)))));
    }
    for (const [i, [args, , code, errorCode]] of cases.entries()) {
      const r = runs[i];
      expect({ args, code: r.code }).toEqual({ args, code });
      // submit answers one result per file, each with its error and exit code.
      const body = errorCode ? JSON.parse(r.stdout) : undefined;
      if (errorCode)
        expect(args[0] === 'submit' ? body[0] : body).toMatchObject({
          error: { code: errorCode, message: expect.any(String) },
          exitCode: code,
        });
    }
    const plain = await runMm(['status', 'no-such-meeting'], env);
    expect(plain.stderr).toMatch(/^error NOT_FOUND: /m);

    // Not audio, named as text or as audio: the API's own answer, 400 VALIDATION "Unsupported audio type".
    writeFileSync(path.join(dir, 'notes.txt'), 'These are my notes, not a meeting.\n'.repeat(20));
    copyFileSync(path.join(dir, 'notes.txt'), path.join(dir, 'notes.wav'));
    const [notAudio, notAudioText] = await Promise.all([
      runMm(['submit', 'notes.txt', 'notes.wav', '--json'], env, dir),
      runMm(['submit', 'notes.wav'], env, dir),
    ]);
    const unsupported = { code: 'VALIDATION', message: 'Unsupported audio type' };
    expect([notAudio.code, JSON.parse(notAudio.stdout)]).toEqual([
      6,
      ['notes.txt', 'notes.wav'].map((file) => ({ file, error: unsupported, exitCode: 6 })),
    ]);
    expect([notAudioText.code, notAudioText.stdout]).toEqual([
      6,
      'error VALIDATION notes.wav: Unsupported audio type\n',
    ]);

    // A waited meeting that ends FAILED (silence: NO_SPEECH) exits 11 and names the failure.
    copyFileSync(await silence(3), path.join(dir, 'silence.wav'));
    const failed = await runMm(['submit', 'silence.wav', '--wait'], env, dir);
    expect(failed.code).toBe(11);
    expect(failed.stdout).toMatch(/^FAILED \S+ silence\.wav \(\d+ min\) NO_SPEECH$/m);
  }, 120_000);
});
