import { execFileSync } from 'node:child_process';
import { REPO } from '../support/run-mm';

/** Keys typed into the terminal, in tmux's names (`C-c` is Ctrl-C). */
export type TypeKeys = (...keys: string[]) => void;

const tmux = (...args: string[]) =>
  execFileSync('tmux', ['-L', `mm-test-${process.pid}`, ...args], { encoding: 'utf8' });

/**
 * Runs a shell command in a real terminal (tmux) until it prints EXIT=n and answers the last screen;
 * `seen` reads each screen and may type keys (Ctrl-C, as a person would).
 */
export async function inTmux(
  command: string,
  seen: (screen: string, type: TypeKeys) => void = () => undefined,
): Promise<string> {
  tmux('new-session', '-d', '-s', 'mm', '-x', '200', '-y', '50', `${command}; echo EXIT=$?; sleep 600`);
  const type: TypeKeys = (...keys) => void tmux('send-keys', '-t', 'mm', ...keys);
  let screen = '';
  try {
    const deadline = Date.now() + 180_000;
    while (Date.now() < deadline && !/EXIT=\d+/.test(screen)) {
      screen = tmux('capture-pane', '-p', '-J', '-t', 'mm');
      seen(screen, type);
      await new Promise((r) => setTimeout(r, 250));
    }
  } finally {
    tmux('kill-server');
  }
  return screen;
}

/** `pnpm mm` run from `dir` with these variables, as a shell command. */
export const pnpmMmIn = (dir: string, vars: Record<string, string>): string =>
  `cd ${dir} && env ${Object.entries(vars)
    .map(([k, v]) => `${k}=${v}`)
    .join(' ')} pnpm -s -C ${REPO} mm`;
