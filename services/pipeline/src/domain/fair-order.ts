/**
 * Which waiting transcription starts next when a slot frees up. JetStream hands jobs over in
 * submit order, so an account that submits ten meetings at once would otherwise fill every slot
 * while another account's single meeting waits behind all ten. The rule, in order:
 *   1. the account with the fewest transcriptions running now;
 *   2. then the account whose last start is oldest (an account never started comes first);
 *   3. then the oldest waiting job (so an account's own jobs keep their submit order).
 */

/** A job waiting for a slot: its account and its place in arrival order. */
export interface WaitingJob {
  account: string;
  /** Arrival order (smaller arrived earlier). */
  seq: number;
}

/** What the scheduler remembers about an account. */
export interface AccountUse {
  running: number;
  /** Start counter value of the account's last start; null when none started yet. */
  lastStart: number | null;
}

const NEVER = -1;

/** Index in `waiting` of the job to start next, or -1 when nothing waits. */
export function nextFairJob(waiting: readonly WaitingJob[], use: ReadonlyMap<string, AccountUse>): number {
  let best = -1;
  let bestKey: [number, number, number] | null = null;
  for (let i = 0; i < waiting.length; i++) {
    const u = use.get(waiting[i].account);
    const key: [number, number, number] = [u?.running ?? 0, u?.lastStart ?? NEVER, waiting[i].seq];
    if (bestKey === null || before(key, bestKey)) {
      best = i;
      bestKey = key;
    }
  }
  return best;
}

function before(a: readonly number[], b: readonly number[]): boolean {
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return a[i] < b[i];
  return false;
}

/**
 * The start order the rule gives when `slots` jobs run at once and every job takes the same time
 * (all arrived before the first start). For tests and for explaining the rule.
 */
export function fairStartOrder(accounts: readonly string[], slots: number): number[] {
  const waiting: WaitingJob[] = accounts.map((account, seq) => ({ account, seq }));
  const use = new Map<string, AccountUse>();
  const running: string[] = [];
  const order: number[] = [];
  let starts = 0;
  while (waiting.length) {
    while (running.length < slots && waiting.length) {
      const i = nextFairJob(waiting, use);
      const [job] = waiting.splice(i, 1);
      const u = use.get(job.account) ?? { running: 0, lastStart: null };
      use.set(job.account, { running: u.running + 1, lastStart: starts++ });
      running.push(job.account);
      order.push(job.seq);
    }
    // The oldest running job finishes first (equal lengths).
    const done = running.shift()!;
    const u = use.get(done)!;
    use.set(done, { ...u, running: u.running - 1 });
  }
  return order;
}
