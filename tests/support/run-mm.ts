import { execFile } from 'node:child_process';
import path from 'node:path';

export const REPO = path.resolve(__dirname, '..', '..');

export interface MmRun {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs `pnpm mm ARGS` from `cwd` (pnpm runs it at the repo root; INIT_CWD keeps cwd) without a terminal. */
export function runMm(args: string[], env: Record<string, string>, cwd = REPO): Promise<MmRun> {
  return new Promise((resolve) => {
    execFile(
      'pnpm',
      ['-C', REPO, 'mm', ...args],
      { cwd, env: { ...process.env, ...env }, timeout: 120_000 },
      (err, stdout, stderr) => {
        const code = err
          ? typeof (err as { code?: unknown }).code === 'number'
            ? (err as { code: number }).code
            : -1
          : 0;
        resolve({ code, stdout, stderr });
      },
    );
  });
}
