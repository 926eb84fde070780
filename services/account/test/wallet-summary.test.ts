import { summaryHoldsFor, type LoadedSummary } from '../src/domain/wallet-summary';
import { WalletSummaryCache } from '../src/services/wallet-summary.cache';

const H = 3600_000;
const t0 = new Date('2026-01-02T00:00:00Z');
const at = (ms: number) => new Date(t0.getTime() + ms);
const loaded = (oldest: Date | null, since = t0): LoadedSummary => ({
  balance: 10,
  openHolds: 2,
  used: 3,
  since,
  oldestCountedAt: oldest,
});

describe('summaryHoldsFor', () => {
  it('holds for later windows until the oldest counted spend leaves the window', () => {
    const s = loaded(at(5 * H));
    expect(summaryHoldsFor(s, t0)).toBe(true);
    expect(summaryHoldsFor(s, at(5 * H - 1))).toBe(true);
    expect(summaryHoldsFor(s, at(5 * H))).toBe(false);
  });
  it('never holds for a window that starts earlier than the one loaded (spends before it were not counted)', () => {
    expect(summaryHoldsFor(loaded(null), at(-1))).toBe(false);
  });
  it('holds for any later window when nothing was counted', () => {
    expect(summaryHoldsFor(loaded(null), at(1000 * H))).toBe(true);
  });
});

describe('WalletSummaryCache', () => {
  const on = () => {
    const c = new WalletSummaryCache();
    c.setEnabled(true);
    return c;
  };

  it('answers a stored summary per account and token', () => {
    const c = on();
    c.set(c.mark(), 'a', 't1', loaded(null));
    expect(c.get('a', 't1', t0)?.used).toBe(3);
    expect(c.get('a', 't2', t0)).toBeNull();
    expect(c.get('b', 't1', t0)).toBeNull();
    expect(c.hits).toBe(1);
    expect(c.misses).toBe(2);
  });
  it("forgets an account's summaries on invalidation, and only that account's", () => {
    const c = on();
    c.set(c.mark(), 'a', null, loaded(null));
    c.set(c.mark(), 'b', null, loaded(null));
    c.invalidate('a');
    expect(c.get('a', null, t0)).toBeNull();
    expect(c.get('b', null, t0)).not.toBeNull();
    c.invalidate(null);
    expect(c.get('b', null, t0)).toBeNull();
  });
  it('drops a load that overlapped an invalidation (it may have read before the commit)', () => {
    const c = on();
    const mark = c.mark();
    c.invalidate('other');
    c.set(mark, 'a', null, loaded(null));
    expect(c.get('a', null, t0)).toBeNull();
  });
  it('stores and answers nothing while disabled, and forgets everything when switched', () => {
    const c = new WalletSummaryCache();
    c.set(c.mark(), 'a', null, loaded(null));
    expect(c.get('a', null, t0)).toBeNull();
    c.setEnabled(true);
    c.set(c.mark(), 'a', null, loaded(null));
    c.setEnabled(false);
    c.setEnabled(true);
    expect(c.get('a', null, t0)).toBeNull();
  });
});
