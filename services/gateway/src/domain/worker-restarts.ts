/**
 * How long the gateway's primary waits before forking a worker again: at once (a tenth of a
 * second) after a worker that had run for a while, then doubling from one second for each death
 * in quick succession, at most 30 s, so a worker that cannot start does not spin the machine.
 */
export const RESTART_DELAY = { afterLongRunMs: 100, firstQuickMs: 1000, maxMs: 30_000 };

/** `quickDeaths`: deaths in a row, each within a minute of the worker's start (0 after a long run). */
export function nextRestartDelayMs(quickDeaths: number): number {
  if (quickDeaths <= 0) return RESTART_DELAY.afterLongRunMs;
  return Math.min(RESTART_DELAY.maxMs, RESTART_DELAY.firstQuickMs * 2 ** (quickDeaths - 1));
}
