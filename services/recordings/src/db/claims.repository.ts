import { sql } from 'kysely';
import type { Db } from './recordings.repository';
import type { IdempotencyKeyTable } from './schema';

/** Who sent a submit: a key is one caller's (the same account through another token is someone else). */
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

export interface KeyClaim {
  key: string;
  tokenId: string | null;
  source: IdempotencyKeyTable['source'];
  recordingId: string | null;
  state: IdempotencyKeyTable['state'];
  claimId: string;
  createdAt: Date;
}

/** The submit Idempotency-Keys: one row per account and key, `storing` until its meeting commits. */
export class ClaimRepository {
  /** Claims `key` for this caller; false when someone holds or used it already. */
  async insert(db: Db, caller: Caller, held: HeldKey): Promise<boolean> {
    const inserted = await db
      .insertInto('idempotencyKey')
      .values({
        accountId: caller.accountId,
        key: held.key,
        tokenId: caller.tokenId,
        source: caller.source,
        state: 'storing',
        recordingId: null,
        claimId: held.claimId,
      })
      .onConflict((oc) => oc.columns(['accountId', 'key']).doNothing())
      .returning('key')
      .executeTakeFirst();
    return !!inserted;
  }

  async get(db: Db, accountId: string, key: string): Promise<KeyClaim | undefined> {
    return db
      .selectFrom('idempotencyKey')
      .select(['key', 'tokenId', 'source', 'recordingId', 'state', 'claimId', 'createdAt'])
      .where('accountId', '=', accountId)
      .where('key', '=', key)
      .executeTakeFirst();
  }

  /** Drops a `storing` claim if it is still this one (answers nothing: a claim completed or taken over stays). */
  async drop(db: Db, accountId: string, held: HeldKey): Promise<void> {
    await db
      .deleteFrom('idempotencyKey')
      .where('accountId', '=', accountId)
      .where('key', '=', held.key)
      .where('claimId', '=', held.claimId)
      .where('state', '=', 'storing')
      .execute();
  }

  /** Marks this claim done with its meeting; false when it is no longer this request's. */
  async complete(db: Db, caller: Caller, held: HeldKey, recordingId: string): Promise<boolean> {
    const done = await db
      .updateTable('idempotencyKey')
      .set({ state: 'done', recordingId, createdAt: sql`created_at` })
      .where('accountId', '=', caller.accountId)
      .where('key', '=', held.key)
      .where('claimId', '=', held.claimId)
      .where('state', '=', 'storing')
      .executeTakeFirst();
    return Number(done.numUpdatedRows) === 1;
  }
}
