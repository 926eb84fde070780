/**
 * The wallet's rules, without I/O. Money moves only as ledger entries; every figure here is
 * derived from them.
 */

export const DAY_MS = 24 * 3600 * 1000;

export interface LedgerFacts {
  /** Sum of credits (trial, grants, purchases). */
  credits: number;
  /** Sum of captured meeting charges. */
  captures: number;
  /** Sum of Ask charges. */
  askCharges: number;
  /** Sum of holds neither captured nor released: meetings whose transcript is not ready. */
  openHolds: number;
  hasTrialCredit: boolean;
  hasPurchase: boolean;
}

/** `wallet.balanceMinutes`: does not subtract meetings whose transcript is not ready. */
export function balanceOf(f: LedgerFacts): number {
  return f.credits - f.captures - f.askCharges;
}

/** What admission of a new meeting sees: the balance less meetings still in progress. */
export function availableOf(f: LedgerFacts): number {
  return balanceOf(f) - f.openHolds;
}

/** One spend counted against a token's daily cap. */
export interface Spend {
  minutes: number;
  at: Date;
}

/** Minutes a token spent in the 24 hours before `now`. */
export function usedInWindow(spends: readonly Spend[], now: Date): number {
  const from = now.getTime() - DAY_MS;
  return spends
    .filter((s) => s.at.getTime() > from && s.at.getTime() <= now.getTime())
    .reduce((a, s) => a + s.minutes, 0);
}

/**
 * Seconds until enough of the window ages out for `price` to fit under `cap`; null when waiting
 * cannot help (the price alone exceeds the cap).
 */
export function capRetryAfter(spends: readonly Spend[], cap: number, price: number, now: Date): number | null {
  if (price > cap) return null;
  const from = now.getTime() - DAY_MS;
  const live = spends.filter((s) => s.at.getTime() > from).sort((a, b) => a.at.getTime() - b.at.getTime());
  let used = live.reduce((a, s) => a + s.minutes, 0);
  for (const s of live) {
    used -= s.minutes;
    if (used + price <= cap) return Math.max(1, Math.ceil((s.at.getTime() + DAY_MS - now.getTime()) / 1000));
  }
  return 1;
}

export type Refusal =
  | { code: 'DAILY_LIMIT_REACHED'; retryAfter: number | null }
  | {
      code: 'TOKEN_DAILY_CAP';
      details: { capMinutes: number; usedMinutes: number; requiredMinutes: number };
      retryAfter: number | null;
    }
  | { code: 'INSUFFICIENT_MINUTES'; details: { requiredMinutes: number; balanceMinutes?: number } };

export interface AdmissionInput {
  facts: LedgerFacts;
  price: number;
  now: Date;
  /** The account's own count in the last 24 hours (meetings or Asks) and the service's limit. */
  dailyCount: { used: number; limit: number; oldestAt: Date | null };
  tokenCap: { cap: number; spends: readonly Spend[] } | null;
  /** Whether the caller may see the balance in the refusal (holds account:read). */
  showBalance: boolean;
  /** For a meeting: the trial overdraft allowance; for an Ask: 0. */
  trialOverdraftMinutes: number;
  /**
   * Meetings are admitted against balance less holds ('available'), Asks against the balance;
   * this also tells a meeting's refusal from an Ask's.
   */
  against: 'available' | 'balance';
}

/**
 * Decides whether a spend may proceed. Order: the service's daily limit, the token's cap, then
 * the balance (with the trial overdraft: an account that has trial minutes and never bought any
 * may send one meeting that takes it below 0, by at most the allowance).
 */
export function admit(i: AdmissionInput): Refusal | null {
  if (i.dailyCount.used >= i.dailyCount.limit) {
    // On a meeting the contract's 429 has no Retry-After ("will not pass by waiting"); on an Ask it
    // says when the oldest Ask of the window leaves it.
    if (i.against === 'available') return { code: 'DAILY_LIMIT_REACHED', retryAfter: null };
    const retryAfter = i.dailyCount.oldestAt
      ? Math.max(1, Math.ceil((i.dailyCount.oldestAt.getTime() + DAY_MS - i.now.getTime()) / 1000))
      : null;
    return { code: 'DAILY_LIMIT_REACHED', retryAfter };
  }
  if (i.tokenCap) {
    const used = usedInWindow(i.tokenCap.spends, i.now);
    if (used + i.price > i.tokenCap.cap) {
      return {
        code: 'TOKEN_DAILY_CAP',
        details: { capMinutes: i.tokenCap.cap, usedMinutes: used, requiredMinutes: i.price },
        retryAfter: capRetryAfter(i.tokenCap.spends, i.tokenCap.cap, i.price, i.now),
      };
    }
  }
  const have = i.against === 'available' ? availableOf(i.facts) : balanceOf(i.facts);
  if (have >= i.price) return null;
  const overdraftAllowed =
    i.trialOverdraftMinutes > 0 &&
    i.facts.hasTrialCredit &&
    !i.facts.hasPurchase &&
    have >= 0 &&
    i.price - have <= i.trialOverdraftMinutes;
  if (overdraftAllowed) return null;
  return {
    code: 'INSUFFICIENT_MINUTES',
    details: { requiredMinutes: i.price, ...(i.showBalance ? { balanceMinutes: have } : {}) },
  };
}
