/**
 * The rules for an answer the gateway keeps and gives again (whoami's): libs/http kept-answers.ts
 * says how the owning service marks one and how the wallet version proves it.
 */

/** What is needed to decide whether a kept answer may be given. */
export interface KeptProof {
  /** The wallet version read before the owning service was asked. */
  walletVersion: string;
  /** Epoch ms after which it is not given, whatever the version. */
  until: number;
}

/**
 * Until when an answer may be kept (epoch ms), from its service's mark: never past the mark, never
 * longer than `maxAgeMs` × `share` after `askedAt` (the moment the version was read, before
 * asking). Null: not to be kept (no mark, a mark that is not a time, or one already past).
 * `share` (0.5–1, drawn per answer by the caller) spreads the ends: answers kept in the same burst
 * (a cold gateway, a wallet change of a busy account) do not all go back to the account at once.
 */
export function keptUntil(mark: string | undefined, askedAt: number, maxAgeMs: number, share = 1): number | null {
  if (mark === undefined || !/^\d{1,15}$/.test(mark)) return null;
  const until = Math.min(Number(mark), askedAt + Math.floor(maxAgeMs * Math.min(1, Math.max(0.5, share))));
  return until > askedAt ? until : null;
}

/** Whether a kept answer may be given now: the wallet version read for this request is the one it was kept under, and its time holds. */
export function keptAnswerHolds(kept: KeptProof, walletVersion: string | null, now: number): boolean {
  return walletVersion !== null && kept.walletVersion === walletVersion && now < kept.until;
}
