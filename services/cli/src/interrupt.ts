import { readFileSync } from 'node:fs';
import { EXIT } from './domain/exit-codes';

/** Why a long-running command stopped early, and the exit code that says so. */
export interface Stop {
  reason: 'SIGINT' | 'SIGTERM' | 'parent gone';
  exitCode: number;
}

export interface Interruption {
  /** Aborted on SIGINT, SIGTERM, or when the process that started mm went away. */
  signal: AbortSignal;
  /** Settles with the stop once one happens (never rejects). */
  stopped: Promise<Stop>;
  /** Gives the signals back to their default handling. */
  dispose(): void;
}

/** How often a long-running command checks that its parent is still there. */
const PARENT_CHECK_MS = 2000;

/**
 * Watches for SIGINT and SIGTERM while a long command runs (submit, wait, events --follow), and
 * for its parent's end: `pnpm mm` killed leaves node reparented, still following, so the parent's
 * pid is checked every few seconds. The command then prints what it knows and exits 130/143/129.
 */
export function watchInterruption(): Interruption {
  const abort = new AbortController();
  let settle: (s: Stop) => void = () => undefined;
  const stopped = new Promise<Stop>((resolve) => (settle = resolve));
  const stop = (s: Stop) => {
    if (abort.signal.aborted) return;
    settle(s);
    abort.abort(new Error(`stopped: ${s.reason}`));
  };
  const onInt = () => stop({ reason: 'SIGINT', exitCode: EXIT.SIGINT });
  const onTerm = () => stop({ reason: 'SIGTERM', exitCode: EXIT.SIGTERM });
  process.on('SIGINT', onInt);
  process.on('SIGTERM', onTerm);
  const parent = parentPid();
  const timer = setInterval(() => {
    if (parentPid() !== parent) stop({ reason: 'parent gone', exitCode: EXIT.PARENT_GONE });
  }, PARENT_CHECK_MS);
  timer.unref();
  return {
    signal: abort.signal,
    stopped,
    dispose: () => {
      clearInterval(timer);
      process.off('SIGINT', onInt);
      process.off('SIGTERM', onTerm);
    },
  };
}

/** The parent's pid as it is now (process.ppid is read once at start and never changes). */
function parentPid(): number {
  try {
    // /proc/self/stat: "pid (comm) state ppid ..."; comm may hold spaces, so read after the last ')'.
    const stat = readFileSync('/proc/self/stat', 'utf8');
    return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
  } catch {
    return parentAlive(process.ppid) ? process.ppid : 1;
  }
}

function parentAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}
