import { setTimeout as sleep } from 'node:timers/promises';
import { ApiError } from './errors';

/**
 * Where one Idempotency-Key's claim is kept (a row per account and key): each service keeps its
 * own table, this protocol reads it through these functions only.
 */
export interface ClaimStore<Row> {
  /** The claim of the key, if any. */
  find(): Promise<Row | undefined>;
  /**
   * Claims the key for this request before its work; false when a claim exists. Without it the
   * caller claims later itself (an Ask prices its question first) and `claimKey` only reads.
   */
  insert?(): Promise<boolean>;
  /** The claim was made by this caller (the same token, or the app): only it may replay or take it over. */
  sameCaller(row: Row): boolean;
  /** The claim's request finished: its result is the answer to every repeat. */
  done(row: Row): boolean;
  /**
   * Takes over a claim whose request died (older than the service's stale bound): 'taken' when
   * this request holds it now, 'dropped' when it was removed (claim again), false while it is fresh.
   */
  takeOver(row: Row): Promise<'taken' | 'dropped' | false>;
}

export interface ClaimPolicy {
  /** The 409 IDEMPOTENCY_KEY_IN_USE message, when another caller holds the key. */
  inUseMessage: string;
  /** The refusal while an earlier request with the key still runs (and no wait is left). */
  busy: () => ApiError;
  /** How often the claim is tried at most (a dropped claim is claimed again). */
  attempts?: number;
  /** Wait for a running earlier request (polling), instead of refusing at once. */
  wait?: { ms: number; pollMs: number };
}

export type ClaimOutcome<Row> =
  /** This request claimed the key (`insert` answered true). */
  | { kind: 'claimed' }
  /** An earlier request of this caller finished: answer its result. */
  | { kind: 'replay'; row: Row }
  /** An earlier request died: this one holds its claim now. */
  | { kind: 'taken'; row: Row }
  /** No claim holds the key (a store without `insert`: the caller claims it). */
  | { kind: 'free' };

/**
 * The one Idempotency-Key protocol of the spending routes (submit and the Asks): a key is one
 * caller's (another token's or the app's is 409 IDEMPOTENCY_KEY_IN_USE), a finished request's
 * result is replayed, a running one is refused (or waited for), a dead one's claim is taken over.
 */
export async function claimKey<Row>(store: ClaimStore<Row>, policy: ClaimPolicy): Promise<ClaimOutcome<Row>> {
  const until = policy.wait ? Date.now() + policy.wait.ms : 0;
  for (let attempt = 0; attempt < (policy.attempts ?? Number.POSITIVE_INFINITY); attempt++) {
    if (store.insert && (await store.insert())) return { kind: 'claimed' };
    const row = await store.find();
    if (!row) {
      if (store.insert) continue; // the other request failed and dropped its claim: try again
      return { kind: 'free' };
    }
    if (!store.sameCaller(row)) throw new ApiError('IDEMPOTENCY_KEY_IN_USE', policy.inUseMessage);
    if (store.done(row)) return { kind: 'replay', row };
    const over = await store.takeOver(row);
    if (over === 'taken') return { kind: 'taken', row };
    if (over === 'dropped') continue;
    if (!policy.wait || Date.now() > until) throw policy.busy();
    await sleep(policy.wait.pollMs);
  }
  throw policy.busy();
}

/** The finished claim of this caller's key, for a replay that claims nothing (over a rate budget), or null. */
export async function replayOf<Row>(store: Pick<ClaimStore<Row>, 'find' | 'sameCaller' | 'done'>): Promise<Row | null> {
  const row = await store.find();
  return row && store.sameCaller(row) && store.done(row) ? row : null;
}
