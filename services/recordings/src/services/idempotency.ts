import { sql, type Kysely } from 'kysely';
import { ApiError, newId } from '@mm/http';
import type { Database } from '../db/schema';

export interface Caller {
  accountId: string;
  tokenId: string | null;
  source: 'api' | 'upload';
}

/** A claimed key names its claim: only that request may complete or drop it. */
export interface HeldKey {
  key: string;
  claimId: string;
}

export type Claim = { kind: 'replay'; recordingId: string } | { kind: 'claimed'; held: HeldKey } | { kind: 'none' };

/**
 * Submit idempotency keys: one key makes one meeting per account, across the app and every token,
 * forever. A key is claimed (`storing`) before the audio is read, so a concurrent duplicate gets
 * UPLOAD_IN_PROGRESS instead of a second upload; the claim becomes `done` in the transaction that
 * creates the meeting, or is dropped when the request fails (errors store nothing). A claim older
 * than `staleClaimSeconds` is taken over by the next request; the request that lost it can then
 * neither complete it nor drop it (each claim has its own id).
 */
export class IdempotencyKeys {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly staleClaimSeconds: number,
  ) {}

  async claim(caller: Caller, key: string | null): Promise<Claim> {
    if (key === null) return { kind: 'none' };
    for (let attempt = 0; attempt < 3; attempt++) {
      const claimId = newId('clm');
      const inserted = await this.db
        .insertInto('idempotencyKey')
        .values({ accountId: caller.accountId, key, tokenId: caller.tokenId, source: caller.source, state: 'storing', recordingId: null, claimId })
        .onConflict((oc) => oc.columns(['accountId', 'key']).doNothing())
        .returning('key')
        .executeTakeFirst();
      if (inserted) return { kind: 'claimed', held: { key, claimId } };
      const row = await this.db.selectFrom('idempotencyKey').selectAll().where('accountId', '=', caller.accountId).where('key', '=', key).executeTakeFirst();
      if (!row) continue; // the other request failed and dropped its claim: try again
      const sameCaller = row.source === caller.source && row.tokenId === caller.tokenId;
      if (!sameCaller) throw new ApiError('IDEMPOTENCY_KEY_IN_USE', 'This Idempotency-Key was already used; use a new key.');
      if (row.state === 'done') return { kind: 'replay', recordingId: row.recordingId! };
      const ageSeconds = (Date.now() - row.createdAt.getTime()) / 1000;
      if (ageSeconds < this.staleClaimSeconds) {
        throw new ApiError('UPLOAD_IN_PROGRESS', 'An earlier request with this key is still storing its audio.', undefined, { 'Retry-After': '5' });
      }
      // The request that claimed it died mid-upload; take the claim over.
      await this.db.deleteFrom('idempotencyKey').where('accountId', '=', caller.accountId).where('key', '=', key).where('state', '=', 'storing').where('claimId', '=', row.claimId).execute();
    }
    throw new ApiError('UPLOAD_IN_PROGRESS', 'An earlier request with this key is still storing its audio.', undefined, { 'Retry-After': '5' });
  }

  /** The meeting a finished request of this caller made with this key, or null (claims nothing). */
  async replayOf(caller: Caller, key: string): Promise<string | null> {
    const row = await this.db.selectFrom('idempotencyKey').selectAll().where('accountId', '=', caller.accountId).where('key', '=', key).executeTakeFirst();
    const sameCaller = row && row.source === caller.source && row.tokenId === caller.tokenId;
    return sameCaller && row.state === 'done' ? row.recordingId : null;
  }

  /** Drops this request's claim after it failed: the same key runs for real next time. */
  async release(caller: Caller, held: HeldKey | null): Promise<void> {
    if (held === null) return;
    await this.db
      .deleteFrom('idempotencyKey')
      .where('accountId', '=', caller.accountId)
      .where('key', '=', held.key)
      .where('claimId', '=', held.claimId)
      .where('state', '=', 'storing')
      .execute();
  }
}

/**
 * Marks this request's claim done inside the transaction that creates the meeting. A claim taken
 * over meanwhile (this request was slow past the stale bound) is no longer ours: the transaction
 * fails, so one key never makes two meetings.
 */
export async function completeClaim(trx: Kysely<Database>, caller: Caller, held: HeldKey, recordingId: string): Promise<void> {
  const done = await trx
    .updateTable('idempotencyKey')
    .set({ state: 'done', recordingId, createdAt: sql`created_at` })
    .where('accountId', '=', caller.accountId)
    .where('key', '=', held.key)
    .where('claimId', '=', held.claimId)
    .where('state', '=', 'storing')
    .executeTakeFirst();
  if (Number(done.numUpdatedRows) !== 1) {
    throw new ApiError('UPLOAD_IN_PROGRESS', 'A later request with this Idempotency-Key took it over; retry to get its result.', undefined, { 'Retry-After': '5' });
  }
}

