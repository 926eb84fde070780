/**
 * An independent model of the wallet, written from the contract's rules (Limits: Minutes, Token
 * cap; Errors), and a seeded generator of random operation sequences. It shares no code with
 * src/: its own bookkeeping (holds with their state, running totals) and its own decisions.
 */
export const DAY_MS = 24 * 3600 * 1000;

/** A small seeded PRNG (mulberry32): the same seed gives the same sequence, so failures replay. */
export function prng(seed: number) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const int = (lo: number, hi: number) => lo + Math.floor(next() * (hi - lo + 1));
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(next() * xs.length)];
  return { next, int, pick };
}
export type Rng = ReturnType<typeof prng>;

export type CreditKind = 'trial' | 'grant' | 'purchase';
export interface Limits {
  dailyMeetingLimit: number;
  dailyAskLimit: number;
  trialOverdraftMinutes: number;
}
/** Who spends: a token with a daily cap, one without, or the app (no token; may see the balance). */
export interface Caller {
  tokenId: string | null;
  cap: number | null;
  showBalance: boolean;
}

export type Op =
  | { kind: 'credit'; ref: string; creditKind: CreditKind; minutes: number }
  | { kind: 'hold'; ref: string; minutes: number; caller: Caller }
  | { kind: 'capture'; ref: string; minutes?: number }
  | { kind: 'release'; ref: string }
  | { kind: 'ask'; ref: string; minutes: number; caller: Caller }
  | { kind: 'advance'; ms: number };

export type Outcome =
  | { ok: true; replay?: boolean; captured?: boolean }
  | { ok: false; code: string; details?: Record<string, number>; retryAfter?: number | null };

interface Hold {
  minutes: number;
  tokenId: string | null;
  at: number;
  state: 'open' | 'captured' | 'released';
  charged: number;
}

export class WalletModel {
  now: number;
  private creditRefs = new Set<string>();
  private credited = 0;
  private hasTrial = false;
  private hasPurchase = false;
  readonly holds = new Map<string, Hold>();
  private asks = new Map<string, { minutes: number; tokenId: string | null; at: number }>();

  constructor(
    readonly limits: Limits,
    start: number,
  ) {
    this.now = start;
  }

  balance(): number {
    let b = this.credited;
    for (const h of this.holds.values()) b -= h.charged;
    for (const a of this.asks.values()) b -= a.minutes;
    return b;
  }

  /** The balance less meetings still in progress (open holds). */
  available(): number {
    let open = 0;
    for (const h of this.holds.values()) if (h.state === 'open') open += h.minutes;
    return this.balance() - open;
  }

  private inWindow = (at: number) => at > this.now - DAY_MS && at <= this.now;

  /** The token's spending in the 24 hours before now: every meeting from acceptance (whatever became of it) and every Ask. */
  used24h(tokenId: string): number {
    return this.spends(tokenId).reduce((a, s) => a + s.minutes, 0);
  }

  private spends(tokenId: string) {
    return [...this.holds.values(), ...this.asks.values()].filter((s) => s.tokenId === tokenId && this.inWindow(s.at));
  }

  apply(op: Op): Outcome {
    switch (op.kind) {
      case 'advance':
        this.now += op.ms;
        return { ok: true };
      case 'credit':
        if (!this.creditRefs.has(op.ref)) {
          this.creditRefs.add(op.ref);
          this.credited += op.minutes;
          if (op.creditKind === 'trial') this.hasTrial = true;
          if (op.creditKind === 'purchase') this.hasPurchase = true;
        }
        return { ok: true };
      case 'hold':
        return this.spend(op, 'meeting');
      case 'ask':
        return this.spend(op, 'ask');
      case 'capture':
      case 'release': {
        const h = this.holds.get(op.ref);
        if (!h) return { ok: false, code: 'NOT_FOUND' };
        if (h.state === 'open') {
          h.state = op.kind === 'capture' ? 'captured' : 'released';
          // A capture takes at most what was held (an unusable attachment lowers it).
          if (op.kind === 'capture') h.charged = Math.min(h.minutes, op.minutes ?? h.minutes);
        }
        return { ok: true, captured: h.state === 'captured' };
      }
    }
  }

  private spend(op: { ref: string; minutes: number; caller: Caller }, what: 'meeting' | 'ask'): Outcome {
    const done = what === 'meeting' ? this.holds : this.asks;
    // A repeat of an accepted request is answered, whatever the limits say now.
    if (done.has(op.ref)) return { ok: true, replay: true };
    const refusal = this.refusal(op.minutes, op.caller, what);
    if (refusal) return refusal;
    const entry = { minutes: op.minutes, tokenId: op.caller.tokenId, at: this.now };
    if (what === 'meeting') this.holds.set(op.ref, { ...entry, state: 'open', charged: 0 });
    else this.asks.set(op.ref, entry);
    return { ok: true, replay: false };
  }

  private refusal(price: number, caller: Caller, what: 'meeting' | 'ask'): Outcome | null {
    // 1. The service's own daily limit: meetings (accepted, whatever became of them) or Asks in 24 h.
    const today = [...(what === 'meeting' ? this.holds : this.asks).values()].filter((e) => this.inWindow(e.at));
    const limit = what === 'meeting' ? this.limits.dailyMeetingLimit : this.limits.dailyAskLimit;
    if (today.length >= limit) {
      // A meeting's refusal does not pass by waiting (no Retry-After); an Ask's says when the oldest leaves the window.
      if (what === 'meeting') return { ok: false, code: 'DAILY_LIMIT_REACHED', retryAfter: null };
      const oldest = Math.min(...today.map((e) => e.at));
      return {
        ok: false,
        code: 'DAILY_LIMIT_REACHED',
        retryAfter: Math.max(1, Math.ceil((oldest + DAY_MS - this.now) / 1000)),
      };
    }
    // 2. The token's cap over the rolling 24 h.
    if (caller.tokenId !== null && caller.cap !== null) {
      const used = this.used24h(caller.tokenId);
      if (used + price > caller.cap) {
        return {
          ok: false,
          code: 'TOKEN_DAILY_CAP',
          details: { capMinutes: caller.cap, usedMinutes: used, requiredMinutes: price },
          retryAfter: this.capWait(caller.tokenId, caller.cap, price),
        };
      }
    }
    // 3. The balance: meetings against the balance less meetings in progress, Asks against the balance.
    const have = what === 'meeting' ? this.available() : this.balance();
    if (have >= price) return null;
    // Trial overdraft: trial minutes, never bought, not already below 0, shortfall within the allowance; meetings only.
    if (
      what === 'meeting' &&
      this.hasTrial &&
      !this.hasPurchase &&
      have >= 0 &&
      price - have <= this.limits.trialOverdraftMinutes
    )
      return null;
    return {
      ok: false,
      code: 'INSUFFICIENT_MINUTES',
      details: { requiredMinutes: price, ...(caller.showBalance ? { balanceMinutes: have } : {}) },
    };
  }

  /** Seconds until enough spending ages out of the window; null when the price alone exceeds the cap. */
  private capWait(tokenId: string, cap: number, price: number): number | null {
    if (price > cap) return null;
    // Try each moment a spend leaves the window, earliest first; the first that makes room wins.
    const leaves = this.spends(tokenId)
      .map((s) => s.at + DAY_MS)
      .sort((a, b) => a - b);
    for (const t of leaves) {
      const usedThen = this.spends(tokenId)
        .filter((s) => s.at + DAY_MS > t)
        .reduce((a, s) => a + s.minutes, 0);
      if (usedThen + price <= cap) return Math.max(1, Math.ceil((t - this.now) / 1000));
    }
    return 1;
  }
}

const ADVANCES = [1000, 60_000, 3_600_000, 6 * 3_600_000, DAY_MS - 1000, DAY_MS, DAY_MS + 3_600_000];

/** A sequence's setting: limits small enough to be reached, and three callers. */
export function randomSetting(rng: Rng, seq: number) {
  const limits: Limits = {
    dailyMeetingLimit: rng.int(2, 8),
    dailyAskLimit: rng.int(2, 8),
    trialOverdraftMinutes: rng.pick([0, 10, 30]),
  };
  const callers: Caller[] = [
    { tokenId: `tok_capped_${seq}`, cap: rng.int(15, 120), showBalance: rng.next() < 0.5 },
    { tokenId: `tok_free_${seq}`, cap: null, showBalance: false },
    { tokenId: null, cap: null, showBalance: true },
  ];
  return { limits, callers };
}

/** The next random operation, chosen with a look at the model (holds to close, references to repeat). */
export function randomOp(rng: Rng, model: WalletModel, callers: Caller[], n: number, past: Op[]): Op {
  const r = rng.next();
  const holdRefs = [...model.holds.keys()];
  const open = holdRefs.filter((k) => model.holds.get(k)!.state === 'open');
  if (r < 0.14)
    return {
      kind: 'credit',
      ref: `cr_${n}`,
      creditKind: rng.pick(['trial', 'trial', 'grant', 'purchase'] as const),
      minutes: rng.int(1, 60),
    };
  if (r < 0.38) return { kind: 'hold', ref: `m_${n}`, minutes: rng.int(1, 40), caller: rng.pick(callers) };
  if (r < 0.52 && holdRefs.length) {
    const ref = open.length && rng.next() < 0.85 ? rng.pick(open) : rng.pick(holdRefs);
    const held = model.holds.get(ref)!.minutes;
    return { kind: 'capture', ref, minutes: rng.next() < 0.4 ? undefined : rng.int(0, held + 5) };
  }
  if (r < 0.6 && holdRefs.length)
    return { kind: 'release', ref: open.length && rng.next() < 0.85 ? rng.pick(open) : rng.pick(holdRefs) };
  if (r < 0.74) return { kind: 'ask', ref: `a_${n}`, minutes: rng.int(1, 20), caller: rng.pick(callers) };
  if (r < 0.9) return { kind: 'advance', ms: rng.pick(ADVANCES) };
  // A repeat of an earlier request (same reference and body): idempotency, or a second try after a refusal.
  const repeatable = past.filter((o) => o.kind === 'hold' || o.kind === 'ask' || o.kind === 'credit');
  if (repeatable.length) return rng.pick(repeatable);
  return rng.next() < 0.5 ? { kind: 'capture', ref: 'm_unknown' } : { kind: 'advance', ms: 60_000 };
}

/**
 * A random sequence: its setting, a fresh model, and `next()` for the following operation. Apply
 * each operation to the model (and to the system under test) before asking for the next one.
 */
export function newSequence(seed: number) {
  const rng = prng(seed);
  const { limits, callers } = randomSetting(rng, seed);
  const start = Date.UTC(2030, 0, 1) + seed * 60_000;
  const model = new WalletModel(limits, start);
  // Half the accounts start with trial minutes, like a new account with a verified phone.
  const trial = rng.next() < 0.5 ? rng.int(5, 40) : 0;
  const past: Op[] = [];
  const next = (): Op => {
    const op: Op =
      past.length === 0 && trial > 0
        ? { kind: 'credit', ref: 'cr_trial', creditKind: 'trial', minutes: trial }
        : randomOp(rng, model, callers, past.length, past);
    past.push(op);
    return op;
  };
  return { limits, callers, start, model, next };
}
