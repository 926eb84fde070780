import { summaryHoldsFor, type LoadedSummary } from '../domain/wallet-summary';

const MAX_ENTRIES = 100_000;
/**
 * A backstop, not the mechanism: an entry is reloaded after this long even without a change
 * notification, which bounds the damage of a notification lost in a way nobody noticed.
 */
const MAX_AGE_MS = 60_000;

/**
 * Remembers whoami's wallet figures per account and token, so that the most frequent read of the
 * API does not sum the ledger every time.
 *
 * Correctness rests on invalidation (the age limit is only a backstop): every ledger write of this
 * process calls `invalidate` after its commit, and a trigger on the ledger notifies every replica
 * (including writes made by hand in psql) through `WalletChangesListener`. While that listener is not
 * connected the cache is off (`enabled` false), because writes of other replicas would go unseen.
 * A load that overlapped any invalidation is not kept: it may have read the ledger before a commit
 * that the invalidation announced.
 */
export class WalletSummaryCache {
  private readonly entries = new Map<string, Map<string, LoadedSummary & { loadedAt: number }>>();
  /** Bumped by every invalidation; a load keeps its result only if this did not move meanwhile. */
  private generation = 0;
  private enabled = false;
  /** Reads answered from the cache, and reads that went to the ledger (for metrics and tests). */
  hits = 0;
  misses = 0;

  /** The figures for a window starting at `since`, if cached and still valid for it. */
  get(accountId: string, tokenId: string | null, since: Date): LoadedSummary | null {
    const hit = this.enabled ? this.entries.get(accountId)?.get(tokenId ?? '') : undefined;
    if (hit && summaryHoldsFor(hit, since) && Date.now() - hit.loadedAt < MAX_AGE_MS) {
      this.hits += 1;
      return hit;
    }
    this.misses += 1;
    return null;
  }

  /** Call before reading the ledger; pass the result to `set`. */
  mark(): number {
    return this.generation;
  }

  set(mark: number, accountId: string, tokenId: string | null, loaded: LoadedSummary): void {
    if (!this.enabled || mark !== this.generation) return;
    let byToken = this.entries.get(accountId);
    if (!byToken) {
      if (this.entries.size >= MAX_ENTRIES) this.entries.clear();
      byToken = new Map();
      this.entries.set(accountId, byToken);
    }
    byToken.set(tokenId ?? '', { ...loaded, loadedAt: Date.now() });
  }

  /** The account's ledger changed (committed); `null` when any account's may have. */
  invalidate(accountId: string | null): void {
    this.generation += 1;
    if (accountId === null) this.entries.clear();
    else this.entries.delete(accountId);
  }

  /** Turns the cache on (change notifications flowing) or off (forgets everything). */
  setEnabled(on: boolean): void {
    this.invalidate(null);
    this.enabled = on;
  }
}
