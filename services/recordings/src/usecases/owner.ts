import { ApiError, type Principal } from '@mm/http';
import type { RecordingRow } from '../db/schema';
import type { Tx } from '../db/transaction';
import { inTransaction } from '../db/transaction';
import type { UseCaseContext } from './context';

/** The operator (the admin API with no account in the path) reaches every meeting. */
export const OPERATOR_ACCOUNT = '*';
export const ownedBy = (p: Principal, r: Pick<RecordingRow, 'accountId'>) =>
  p.accountId === OPERATOR_ACCOUNT || r.accountId === p.accountId;

/** What a change to a meeting answers: its row, and the kind of change READY meetings announce. */
export type Changed = { row: RecordingRow; change?: string } | null;

/**
 * Changes one of the owner's meetings under its row lock (the app's actions, through the admin
 * API); a change to a READY meeting announces recording.updated with its kind. Another account's,
 * a missing and (unless `includeDeleted`) a deleted meeting are all NOT_FOUND.
 */
export function changeOwned(
  ctx: UseCaseContext,
  p: Principal,
  id: string,
  fn: (r: RecordingRow, trx: Tx) => Promise<Changed>,
  opts: { includeDeleted?: boolean } = {},
): Promise<RecordingRow> {
  const { repos } = ctx;
  return inTransaction(ctx.db, async (trx) => {
    const r = await repos.recordings.get(trx, id, { forUpdate: true });
    if (!r || !ownedBy(p, r) || (!opts.includeDeleted && r.deletedAt))
      throw new ApiError('NOT_FOUND', 'No such meeting.');
    const out = await fn(r, trx);
    if (out?.change && out.row.status === 'READY' && !out.row.deletedAt)
      await repos.recordings.emit(trx, out.row, 'recording.updated', { change: out.change });
    return out?.row ?? r;
  });
}

/** The owner's meeting as it is now, unlocked (to prepare what a change needs), or null. */
export async function peekOwned(ctx: UseCaseContext, p: Principal, id: string): Promise<RecordingRow | null> {
  const r = await ctx.repos.recordings.get(ctx.db, id);
  return r && ownedBy(p, r) && !r.deletedAt ? r : null;
}
