/**
 * The status poll's waits: the contract asks for about one poll a minute. The first polls come
 * sooner (short meetings finish in seconds) and the wait doubles up to the minute. Pure.
 */
export interface PollSchedule {
  firstMs: number;
  maxMs: number;
}

export const DEFAULT_POLL: PollSchedule = { firstMs: 5_000, maxMs: 60_000 };

/** The wait before poll number `n` (1 is the poll after the first read). */
export function pollDelayMs(n: number, s: PollSchedule = DEFAULT_POLL, retryAfterSeconds?: number): number {
  const wait = Math.min(s.maxMs, s.firstMs * 2 ** Math.max(0, n - 1));
  return retryAfterSeconds !== undefined ? Math.max(wait, retryAfterSeconds * 1000) : wait;
}

/** Statuses at which waiting ends (NAMING too, unless the caller waits through naming). */
export function isSettled(status: string, throughNaming: boolean): boolean {
  return status === 'READY' || status === 'FAILED' || (!throughNaming && status === 'NAMING');
}
