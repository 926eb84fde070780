import { sql, type Kysely } from 'kysely';
import { ApiError } from '@mm/http';
import type { Database } from '../db/schema';

export interface Caller {
  accountId: string;
  tokenId: string | null;
  source: 'api' | 'upload';
}

export type Claim = { kind: 'replay'; recordingId: string } | { kind: 'claimed' } | { kind: 'none' };

/**
 * Submit idempotency keys: one key makes one meeting per account, across the app and every token,
 * forever. A key is claimed (`storing`) before the audio is read, so a concurrent duplicate gets
 * UPLOAD_IN_PROGRESS instead of a second upload; the claim becomes `done` in the transaction that
 * creates the meeting, or is dropped when the request fails (errors store nothing).
 */
export class IdempotencyKeys {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly staleClaimSeconds: number,
  ) {}

  async claim(caller: Caller, key: string | null): Promise<Claim> {
    if (key === null) return { kind: 'none' };
    for (let attempt = 0; attempt < 3; attempt++) {
      const inserted = await this.db
        .insertInto('idempotencyKey')
        .values({ accountId: caller.accountId, key, tokenId: caller.tokenId, source: caller.source, state: 'storing', recordingId: null })
        .onConflict((oc) => oc.columns(['accountId', 'key']).doNothing())
        .returning('key')
        .executeTakeFirst();
      if (inserted) return { kind: 'claimed' };
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
      await this.db.deleteFrom('idempotencyKey').where('accountId', '=', caller.accountId).where('key', '=', key).where('state', '=', 'storing').where('createdAt', '=', row.createdAt).execute();
    }
    throw new ApiError('UPLOAD_IN_PROGRESS', 'An earlier request with this key is still storing its audio.', undefined, { 'Retry-After': '5' });
  }

  /** The meeting a finished request of this caller made with this key, or null (claims nothing). */
  async replayOf(caller: Caller, key: string): Promise<string | null> {
    const row = await this.db.selectFrom('idempotencyKey').selectAll().where('accountId', '=', caller.accountId).where('key', '=', key).executeTakeFirst();
    const sameCaller = row && row.source === caller.source && row.tokenId === caller.tokenId;
    return sameCaller && row.state === 'done' ? row.recordingId : null;
  }

  /** Drops a claim after a failed request: the same key runs for real next time. */
  async release(caller: Caller, key: string | null): Promise<void> {
    if (key === null) return;
    await this.db.deleteFrom('idempotencyKey').where('accountId', '=', caller.accountId).where('key', '=', key).where('state', '=', 'storing').execute();
  }
}

/** Marks a claim done inside the transaction that creates the meeting. */
export async function completeClaim(trx: Kysely<Database>, caller: Caller, key: string, recordingId: string): Promise<void> {
  await trx.updateTable('idempotencyKey').set({ state: 'done', recordingId, createdAt: sql`created_at` }).where('accountId', '=', caller.accountId).where('key', '=', key).execute();
}

