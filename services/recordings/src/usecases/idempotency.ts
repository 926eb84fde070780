import type { Kysely } from 'kysely';
import { ApiError, claimKey, newId, replayOf, type ClaimStore } from '@mm/platform';
import type { Database } from '../db/schema';
import type { Db } from '../db/recordings.repository';
import type { Caller, ClaimRepository, HeldKey, KeyClaim } from '../db/claims.repository';

export type { Caller, HeldKey } from '../db/claims.repository';
export type Claim = { kind: 'replay'; recordingId: string } | { kind: 'claimed'; held: HeldKey } | { kind: 'none' };

const inProgress = (message: string) => new ApiError('UPLOAD_IN_PROGRESS', message, undefined, { 'Retry-After': '5' });

/**
 * Submit idempotency keys: one key makes one meeting per account, across the app and every token,
 * forever. A key is claimed (`storing`) before the audio is read, so a concurrent duplicate gets
 * UPLOAD_IN_PROGRESS instead of a second upload; the claim becomes `done` in the transaction that
 * creates the meeting (`complete`), or is dropped when the request fails (errors store nothing).
 * A claim older than `staleClaimSeconds` is taken over by the next request; the request that lost
 * it can then neither complete it nor drop it (each claim has its own id). The protocol is the
 * platform's (`claimKey`, shared with the Asks); this class keeps its table and its rules.
 */
export class IdempotencyKeys {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly claims: ClaimRepository,
    private readonly staleClaimSeconds: number,
  ) {}

  async claim(caller: Caller, key: string | null): Promise<Claim> {
    if (key === null) return { kind: 'none' };
    let held: HeldKey = { key, claimId: newId('clm') };
    const outcome = await claimKey(
      {
        ...this.keyOf(caller, key),
        insert: () => {
          held = { key, claimId: newId('clm') };
          return this.claims.insert(this.db, caller, held);
        },
        takeOver: async (row) => {
          const ageSeconds = (Date.now() - row.createdAt.getTime()) / 1000;
          if (ageSeconds < this.staleClaimSeconds) return false;
          // The request that claimed it died mid-upload; take the claim over.
          await this.claims.drop(this.db, caller.accountId, { key, claimId: row.claimId });
          return 'dropped';
        },
      },
      {
        attempts: 3,
        inUseMessage: 'This Idempotency-Key was already used; use a new key.',
        busy: () => inProgress('An earlier request with this key is still storing its audio.'),
      },
    );
    if (outcome.kind === 'replay') return { kind: 'replay', recordingId: outcome.row.recordingId! };
    if (outcome.kind === 'claimed') return { kind: 'claimed', held };
    throw new Error(`a submit claim ended ${outcome.kind}`);
  }

  /** The meeting a finished request of this caller made with this key, or null (claims nothing). */
  async replayOf(caller: Caller, key: string): Promise<string | null> {
    return (await replayOf(this.keyOf(caller, key)))?.recordingId ?? null;
  }

  /** A caller's key in the claims table, as the shared protocol (libs/platform) reads it. */
  private keyOf(caller: Caller, key: string): Pick<ClaimStore<KeyClaim>, 'find' | 'sameCaller' | 'done'> {
    return {
      find: () => this.claims.get(this.db, caller.accountId, key),
      sameCaller: (row) => row.source === caller.source && row.tokenId === caller.tokenId,
      done: (row) => row.state === 'done',
    };
  }

  /** Drops this request's claim after it failed: the same key runs for real next time. */
  async release(caller: Caller, held: HeldKey | null): Promise<void> {
    if (held !== null) await this.claims.drop(this.db, caller.accountId, held);
  }

  /**
   * Marks this request's claim done inside the transaction that creates the meeting. A claim taken
   * over meanwhile (this request was slow past the stale bound) is no longer ours: the transaction
   * fails, so one key never makes two meetings.
   */
  async complete(trx: Db, caller: Caller, held: HeldKey, recordingId: string): Promise<void> {
    if (!(await this.claims.complete(trx, caller, held, recordingId)))
      throw inProgress('A later request with this Idempotency-Key took it over; retry to get its result.');
  }
}
