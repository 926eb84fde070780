import { spawn } from 'node:child_process';
import path from 'node:path';

const LOGGER = path.resolve(__dirname, '..', 'src', 'logger.ts');

/** Runs `body` in its own node process with the real logger on its standard output. */
function run(
  body: string,
): Promise<{ code: number | null; lines: Array<Record<string, unknown>>; firstLineAfterMarkMs: number | null }> {
  return new Promise((resolve, reject) => {
    const script = `const { createLogger } = require(${JSON.stringify(LOGGER)});\n${body}`;
    const child = spawn(process.execPath, ['--import', 'tsx', '-e', script], { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    // The script writes "mark" on standard error when it has logged; the line's delay counts from there.
    let markedAt: number | null = null;
    let firstLineAfterMarkMs: number | null = null;
    child.stderr.on('data', (d: Buffer) => {
      if (markedAt === null && d.toString().includes('mark')) markedAt = Date.now();
    });
    child.stdout.on('data', (d: Buffer) => {
      if (firstLineAfterMarkMs === null && markedAt !== null) firstLineAfterMarkMs = Date.now() - markedAt;
      out += d.toString();
    });
    child.on('error', reject);
    child.on('close', (code) =>
      resolve({
        code,
        lines: out
          .trim()
          .split('\n')
          .filter(Boolean)
          .map((l) => JSON.parse(l) as Record<string, unknown>),
        firstLineAfterMarkMs,
      }),
    );
  });
}

describe('log lines gathered before they are written (LOG_BUFFER_BYTES)', () => {
  it('loses no line when the process exits with lines still gathered', async () => {
    const r = await run(
      `const log = createLogger('t', 'info', 4096); for (let i = 0; i < 3; i++) log.info({ i }, 'line'); process.exit(0);`,
    );
    expect(r.code).toBe(0);
    expect(r.lines.map((l) => l.i)).toEqual([0, 1, 2]);
  });

  it('writes a lone line within moments, without waiting for 4 KB', async () => {
    // One short line, then the process stays up for 3 s: the line must come out while it runs,
    // written by the periodic flush (200 ms), long before the exit.
    const r = await run(
      `const log = createLogger('t', 'info', 4096); log.info('alone'); process.stderr.write('mark\\n'); setTimeout(() => { log.info('last'); process.exit(0); }, 3000);`,
    );
    expect(r.lines.map((l) => l.msg)).toEqual(['alone', 'last']);
    expect(r.firstLineAfterMarkMs).not.toBeNull();
    expect(r.firstLineAfterMarkMs!).toBeLessThan(2000);
  });
});
