/**
 * The figures whoami and the account read show, as loaded from the ledger at one moment, and the
 * rule that says for which later moments they still hold without reading the ledger again.
 *
 * `used` counts a token's spends after `since` (the start of a 24-hour window). Read later with a
 * window that starts at `since2`, the same spends count as long as no counted spend has left the
 * window: `since <= since2 < oldestCountedAt`. Entries that change the figures (new credits,
 * holds, captures...) are not this rule's business: every ledger write invalidates the figures.
 */
export interface SummaryFigures {
  balance: number;
  openHolds: number;
  used: number;
}

export interface LoadedSummary extends SummaryFigures {
  /** Start of the window `used` was counted over. */
  since: Date;
  /** created_at of the oldest spend counted in `used`, or null when none was. */
  oldestCountedAt: Date | null;
}

/** Whether `loaded` still answers for a window that starts at `since`. */
export function summaryHoldsFor(loaded: LoadedSummary, since: Date): boolean {
  const t = since.getTime();
  if (t < loaded.since.getTime()) return false;
  return loaded.oldestCountedAt === null || t < loaded.oldestCountedAt.getTime();
}
