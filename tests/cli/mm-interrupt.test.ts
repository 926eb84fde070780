import { spawn, type ChildProcess } from 'node:child_process';
import { copyFileSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { startStack, type Stack } from '../support/stack';
import { speakMeeting } from '../support/speak-meeting';
import { REPO, runMm } from '../support/run-mm';
import { inTmux, pnpmMmIn, type TypeKeys } from './tmux-terminal';

/**
 * `mm` stopped by a signal, as a real process against the real stack: submit --wait lists the
 * meeting it sent and exits 130/143; events --follow says where to resume; and a follow whose
 * parent died (pnpm killed) notices and ends instead of running on reparented. In a real terminal
 * (tmux), Ctrl-C makes `pnpm mm` exit 130 too.
 */
let stack: Stack;
let dir: string;
let env: Record<string, string>;

beforeAll(async () => {
  stack = await startStack({}, { pipeline: true });
  const account = await stack.admin.account({ balanceMinutes: 50 });
  const token = await stack.admin.token(account.id, ['recordings:read', 'recordings:write']);
  dir = mkdtempSync(path.join(tmpdir(), 'mm-interrupt-'));
  copyFileSync((await speakMeeting([['slt', 'We decided to ship on Friday.']])).path, path.join(dir, 'meeting.wav'));
  env = { MM_URL: stack.url, MM_TOKEN: token.value, MM_POLL_SECONDS: '1', MM_CONFIG: path.join(dir, 'none.json') };
}, 60_000);
afterAll(async () => {
  await stack.stop();
});

const MM = ['--import', 'tsx', path.join(REPO, 'services/cli/src/main.ts')];

/** The CLI as its own process (no pnpm), its output gathered, `exited` its exit code. */
function mm(args: string[]) {
  const child = spawn(process.execPath, [...MM, ...args], {
    cwd: REPO,
    env: { ...process.env, ...env, INIT_CWD: dir },
  });
  const out = { stdout: '', stderr: '' };
  child.stdout.on('data', (c) => (out.stdout += c));
  child.stderr.on('data', (c) => (out.stderr += c));
  const exited = new Promise<number | null>((r) => child.on('close', (code) => r(code)));
  return { child, out, exited };
}

/** `pnpm mm events --follow` in a real terminal; `onEvent` reads each screen once an event is shown. */
function followInTmux(onEvent: (shown: string, type: TypeKeys) => void): Promise<string> {
  return inTmux(`${pnpmMmIn(dir, env)} events --follow`, (shown, type) => {
    if (/recording\.created \S+/.test(shown)) onEvent(shown, type);
  });
}

async function until(check: () => boolean, what: string, ms = 60_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

describe('mm stopped by a signal', () => {
  it('submit --wait lists the accepted meeting (JSON per file) and exits 143 on SIGTERM, 130 on SIGINT', async () => {
    for (const [signal, code] of [
      ['SIGTERM', 143],
      ['SIGINT', 130],
    ] as const) {
      const run = mm(['submit', 'meeting.wav', '--wait', '--naming', 'skip', '--json']);
      await until(() => /^meeting\.wav: QUEUED \S+$/m.test(run.out.stderr), 'the meeting to be accepted');
      const id = run.out.stderr.match(/^meeting\.wav: QUEUED (\S+)$/m)![1];
      run.child.kill(signal);
      expect(await run.exited).toBe(code);
      expect(JSON.parse(run.out.stdout)).toEqual([
        expect.objectContaining({ file: 'meeting.wav', recording: expect.objectContaining({ id }), exitCode: code }),
      ]);
    }
  }, 120_000);

  it('wait prints the last status known, in plain lines, and exits 130', async () => {
    const sent = mm(['submit', 'meeting.wav', '--naming', 'skip', '--json']);
    expect(await sent.exited).toBe(0);
    const id: string = JSON.parse(sent.out.stdout)[0].recording.id;
    const run = mm(['wait', id]);
    await until(() => new RegExp(`^${id}: \\S+$`, 'm').test(run.out.stderr), 'a status line');
    run.child.kill('SIGINT');
    expect(await run.exited).toBe(130);
    expect(run.out.stdout).toMatch(new RegExp(`^\\S+ ${id}.* \\(stopped by SIGINT\\)$`, 'm'));
  }, 120_000);

  it('events --follow tells the cursor to resume from: a JSON line, or a line on stderr', async () => {
    const json = mm(['events', '--follow', '--json']);
    const plain = mm(['events', '--follow']);
    // Caught up: the follow now waits between reads.
    await new Promise((r) => setTimeout(r, 3000));
    json.child.kill('SIGINT');
    plain.child.kill('SIGTERM');
    expect(await json.exited).toBe(130);
    expect(await plain.exited).toBe(143);
    const last = JSON.parse(json.out.stdout.trim().split('\n').at(-1)!);
    expect(last).toEqual({ nextCursor: expect.any(String), stoppedBy: 'SIGINT' });
    expect(plain.out.stderr).toMatch(/^resume with: mm events --follow --after \S+$/m);
  }, 60_000);

  it('pnpm mm events --follow in a terminal prints where to resume and exits 130 on Ctrl-C', async () => {
    // A meeting sent makes an event: once its line is on the screen, the follow is running.
    expect((await runMm(['submit', 'meeting.wav', '--naming', 'skip'], env, dir)).code).toBe(0);
    let typed = false;
    const screen = await followInTmux((_shown, type) => {
      if (!typed) type('C-c');
      typed = true;
    });
    // The terminal echoes Ctrl-C as ^C at the start of the line.
    expect(screen).toMatch(/^(\^C)?resume with: mm events --follow --after \S+\s*$/m);
    expect(screen).toMatch(/EXIT=130/);
  }, 120_000);

  it('Ctrl-Z neither ends nor suspends pnpm mm in a terminal: a Ctrl-C after it still exits 130', async () => {
    let typed = '';
    let stoppedAt = 0;
    const screen = await followInTmux((shown, type) => {
      if (!typed) type((typed = 'C-z'));
      // The shell says the job stopped, then lets it go on: a moment later Ctrl-C stops it.
      if (/Stopped/.test(shown)) stoppedAt ||= Date.now();
      if (typed === 'C-z' && stoppedAt && Date.now() - stoppedAt > 1000) type((typed = 'C-c'));
    });
    expect(screen).toMatch(/^(\^C)?resume with: mm events --follow --after \S+\s*$/m);
    expect(screen).toMatch(/EXIT=130/);
  }, 120_000);

  it('events --follow ends by itself when the process that started it dies', async () => {
    // A shell stands for pnpm: it starts mm, says mm's pid, and is killed outright.
    const cmd = `${process.execPath} ${MM.join(' ')} events --follow > /dev/null 2>&1 & echo $!; wait`;
    const shell: ChildProcess = spawn('sh', ['-c', cmd], { cwd: REPO, env: { ...process.env, ...env } });
    let said = '';
    shell.stdout!.on('data', (c) => (said += c));
    await until(() => /^\d+\n/.test(said), "mm's pid", 10_000);
    const pid = Number(said.trim());
    await new Promise((r) => setTimeout(r, 2000));
    shell.kill('SIGKILL');
    await until(() => !alive(pid), 'the orphaned mm to end', 15_000);
  }, 30_000);
});

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}
