import {
  admit,
  availableOf,
  balanceOf,
  DAY_MS,
  usedInWindow,
  type LedgerFacts,
  type Spend,
} from '../src/domain/wallet';
import { newSequence, type CreditKind, type Limits, type Op, type Outcome } from './support/wallet-model';

/**
 * The pure wallet rules, fed the way the wallet service feeds them (an in-memory ledger of
 * entries, figures summed from it), against the independent model of the contract's rules:
 * 200 random sequences of 50 operations each, seeded so that a failure names its seed.
 */
const SEQUENCES = 200;
const OPS = 50;

interface Entry {
  kind: 'credit' | 'hold' | 'capture' | 'release' | 'ask_charge';
  creditKind?: CreditKind;
  minutes: number;
  reference: string;
  holdReference?: string;
  tokenId: string | null;
  at: number;
}

/** The rules behind a ledger kept in memory, like WalletService keeps it in Postgres. */
class RulesHarness {
  private entries: Entry[] = [];
  constructor(
    private readonly limits: Limits,
    public now: number,
  ) {}

  facts(): LedgerFacts {
    const sum = (kind: Entry['kind']) => this.entries.filter((e) => e.kind === kind).reduce((a, e) => a + e.minutes, 0);
    const closed = new Set(
      this.entries.filter((e) => e.kind === 'capture' || e.kind === 'release').map((e) => e.holdReference),
    );
    return {
      credits: sum('credit'),
      captures: sum('capture'),
      askCharges: sum('ask_charge'),
      openHolds: this.entries
        .filter((e) => e.kind === 'hold' && !closed.has(e.reference))
        .reduce((a, e) => a + e.minutes, 0),
      hasTrialCredit: this.entries.some((e) => e.creditKind === 'trial'),
      hasPurchase: this.entries.some((e) => e.creditKind === 'purchase'),
    };
  }

  spends(tokenId: string): Spend[] {
    return this.entries
      .filter(
        (e) => e.tokenId === tokenId && (e.kind === 'hold' || e.kind === 'ask_charge') && e.at > this.now - DAY_MS,
      )
      .map((e) => ({ minutes: e.minutes, at: new Date(e.at) }));
  }

  private dailyCount(kind: 'hold' | 'ask_charge') {
    const today = this.entries.filter((e) => e.kind === kind && e.at > this.now - DAY_MS);
    return { used: today.length, oldestAt: today.length ? new Date(Math.min(...today.map((e) => e.at))) : null };
  }

  private find = (reference: string) => this.entries.find((e) => e.reference === reference);

  apply(op: Op): Outcome {
    if (op.kind === 'advance') {
      this.now += op.ms;
      return { ok: true };
    }
    if (op.kind === 'credit') {
      if (!this.find(op.ref))
        this.entries.push({
          kind: 'credit',
          creditKind: op.creditKind,
          minutes: op.minutes,
          reference: op.ref,
          tokenId: null,
          at: this.now,
        });
      return { ok: true };
    }
    if (op.kind === 'capture' || op.kind === 'release') {
      const hold = this.find(`hold:${op.ref}`);
      if (!hold) return { ok: false, code: 'NOT_FOUND' };
      const closing = this.entries.find((e) => e.holdReference === hold.reference);
      if (closing) return { ok: true, captured: closing.kind === 'capture' };
      const minutes = op.kind === 'capture' ? Math.min(hold.minutes, op.minutes ?? hold.minutes) : 0;
      this.entries.push({
        kind: op.kind,
        minutes,
        reference: `${op.kind}:${op.ref}`,
        holdReference: hold.reference,
        tokenId: hold.tokenId,
        at: this.now,
      });
      return { ok: true, captured: op.kind === 'capture' };
    }
    const meeting = op.kind === 'hold';
    const reference = `${meeting ? 'hold' : 'ask'}:${op.ref}`;
    if (this.find(reference)) return { ok: true, replay: true };
    const { caller } = op;
    const refusal = admit({
      facts: this.facts(),
      price: op.minutes,
      now: new Date(this.now),
      dailyCount: {
        ...this.dailyCount(meeting ? 'hold' : 'ask_charge'),
        limit: meeting ? this.limits.dailyMeetingLimit : this.limits.dailyAskLimit,
      },
      tokenCap: caller.tokenId && caller.cap !== null ? { cap: caller.cap, spends: this.spends(caller.tokenId) } : null,
      showBalance: caller.showBalance,
      trialOverdraftMinutes: meeting ? this.limits.trialOverdraftMinutes : 0,
      against: meeting ? 'available' : 'balance',
    });
    if (refusal) {
      if (refusal.code === 'TOKEN_DAILY_CAP' && refusal.retryAfter !== null)
        this.checkCapWait(caller.tokenId!, caller.cap!, op.minutes, refusal.retryAfter);
      return {
        ok: false,
        code: refusal.code,
        ...('details' in refusal ? { details: refusal.details as Record<string, number> } : {}),
        ...('retryAfter' in refusal ? { retryAfter: refusal.retryAfter } : {}),
      };
    }
    this.entries.push({
      kind: meeting ? 'hold' : 'ask_charge',
      minutes: op.minutes,
      reference,
      tokenId: caller.tokenId,
      at: this.now,
    });
    return { ok: true, replay: false };
  }

  /** Retry-After is exact: after that many seconds the spend fits, one second earlier it does not. */
  private checkCapWait(tokenId: string, cap: number, price: number, retryAfter: number) {
    const spends = this.spends(tokenId);
    expect(usedInWindow(spends, new Date(this.now + retryAfter * 1000)) + price).toBeLessThanOrEqual(cap);
    if (retryAfter > 1)
      expect(usedInWindow(spends, new Date(this.now + (retryAfter - 1) * 1000)) + price).toBeGreaterThan(cap);
  }
}

describe('wallet rules against the model of the contract (property)', () => {
  it(`agree on every decision and figure over ${SEQUENCES} random sequences of ${OPS} operations`, () => {
    const seen = new Map<string, number>();
    for (let seed = 1; seed <= SEQUENCES; seed++) {
      const seq = newSequence(seed);
      const rules = new RulesHarness(seq.limits, seq.start);
      const tokens = seq.callers.flatMap((c) => (c.tokenId ? [c.tokenId] : []));
      for (let step = 0; step < OPS; step++) {
        const op = seq.next();
        const expected = seq.model.apply(op);
        const actual = rules.apply(op);
        const where = `seed ${seed}, step ${step}: ${JSON.stringify(op)}`;
        expect({ where, outcome: actual }).toEqual({ where, outcome: expected });
        const facts = rules.facts();
        const now = new Date(rules.now);
        expect({
          where,
          balance: balanceOf(facts),
          available: availableOf(facts),
          used: tokens.map((t) => usedInWindow(rules.spends(t), now)),
        }).toEqual({
          where,
          balance: seq.model.balance(),
          available: seq.model.available(),
          used: tokens.map((t) => seq.model.used24h(t)),
        });
        const label = expected.ok
          ? `${op.kind}${'replay' in expected && expected.replay ? ' replay' : ''}`
          : `${op.kind} ${expected.code}`;
        seen.set(label, (seen.get(label) ?? 0) + 1);
      }
    }
    // The sequences must reach every rule, or agreement proves little.
    for (const label of [
      'hold',
      'hold replay',
      'ask',
      'ask replay',
      'capture',
      'release',
      'hold DAILY_LIMIT_REACHED',
      'ask DAILY_LIMIT_REACHED',
      'hold TOKEN_DAILY_CAP',
      'ask TOKEN_DAILY_CAP',
      'hold INSUFFICIENT_MINUTES',
      'ask INSUFFICIENT_MINUTES',
      'capture NOT_FOUND',
    ]) {
      expect([label, seen.get(label) ?? 0]).toEqual([label, expect.any(Number)]);
      expect(seen.get(label) ?? 0).toBeGreaterThan(0);
    }
  });

  it('lets a trial account that never bought take one meeting below 0, within the allowance', () => {
    // Across the sequences some meeting was admitted beyond the available minutes: the overdraft path is exercised.
    let overdrafts = 0;
    for (let seed = 1; seed <= SEQUENCES; seed++) {
      const seq = newSequence(seed);
      for (let step = 0; step < OPS; step++) {
        const op = seq.next();
        const before = seq.model.available();
        const out = seq.model.apply(op);
        if (op.kind === 'hold' && out.ok && out.replay === false && op.minutes > before) {
          overdrafts++;
          expect(before).toBeGreaterThanOrEqual(0);
          expect(op.minutes - before).toBeLessThanOrEqual(seq.limits.trialOverdraftMinutes);
          expect(seq.model.available()).toBeLessThan(0);
        }
      }
    }
    expect(overdrafts).toBeGreaterThan(0);
  });
});
