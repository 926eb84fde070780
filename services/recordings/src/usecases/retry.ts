import { BUS } from '@mm/contract';
import { ApiError, newId, type Principal } from '@mm/http';
import type { RecordingRow } from '../db/schema';
import { inTransaction } from '../db/transaction';
import { STEP_STATUS } from '../domain/lifecycle';
import type { MeetingAccess } from '../services/access';
import type { UseCaseContext } from './context';
import type { Charges } from './charges';
import type { DigestUseCase } from './digest';
import { changeOwned, ownedBy } from './owner';

/** A person's second try: the token's retry of a FAILED meeting, the app's "check again". */
export class Retry {
  constructor(
    private readonly ctx: UseCaseContext,
    private readonly charges: Charges,
    private readonly digest: DigestUseCase,
    private readonly access: MeetingAccess,
  ) {}

  /**
   * FAILED → the step that failed, at no new cost. AUDIO_CORRUPT answers its status unchanged, and
   * so does a meeting the service is still retrying itself.
   */
  async retry(p: Principal, id: string): Promise<RecordingRow> {
    const { db, repos } = this.ctx;
    const before = this.access.own(p, await repos.recordings.get(db, id));
    if (before.status !== 'FAILED') throw new ApiError('NOT_FAILED', 'The meeting is not FAILED.');
    const jobId = newId('job');
    // A transcription that failed for good released its hold; the retry is held again before it
    // runs, without admission checks (it is not a new meeting, and it costs nothing more).
    const holdRef = `${before.id}:retry:${jobId}`;
    const passes = (r: RecordingRow) => r.errorCode === 'AUDIO_CORRUPT' || r.autoRetryPending;
    const needsHold = (before.failedStep ?? 'transcribe') === 'transcribe' && !before.charged && !passes(before);
    const hold = needsHold ? { accountId: before.accountId, minutes: before.minutes, reference: holdRef } : null;
    return this.charges.withFreshHold(hold, (used) =>
      this.digest.run(
        async () => {
          const r = await repos.recordings.get(db, id);
          return r && r.status === 'FAILED' && !passes(r) && r.failedStep === 'generate'
            ? this.digest.prepare(r)
            : null;
        },
        (plan) =>
          inTransaction(db, async (trx) => {
            const cur = this.access.own(p, await repos.recordings.get(trx, id, { forUpdate: true }));
            if (cur.status !== 'FAILED') throw new ApiError('NOT_FAILED', 'The meeting is not FAILED.');
            if (passes(cur)) return cur;
            if ((cur.failedStep ?? 'transcribe') === 'generate') return this.digest.commit(trx, plan);
            if (needsHold) used();
            const next = await repos.recordings.update(trx, cur.id, {
              status: STEP_STATUS.transcribe,
              jobId,
              ...(needsHold ? { holdRef } : {}),
              errorCode: null,
              errorRetryable: null,
            });
            await repos.recordings.requestJob(trx, BUS.transcribeJob, {
              jobId,
              step: 'transcribe',
              recordingId: cur.id,
              accountId: cur.accountId,
              audioKey: cur.audioKey,
              keyterms: cur.keyterms,
              attempt: 1,
            });
            return next;
          }),
      ),
    );
  }

  /**
   * "Check again" (the app): back to QUEUED and a fresh transcription. A charged meeting is not
   * charged twice; one not charged is held again first (its hold may have been let go by a final
   * failure, and a capture of a released hold would make the meeting free), and its old hold goes.
   */
  async recheck(p: Principal, id: string): Promise<RecordingRow> {
    const { db, repos } = this.ctx;
    const before = await repos.recordings.get(db, id);
    // Its audio deleted after the digest (the account's setting): there is nothing to transcribe again.
    if (before && ownedBy(p, before) && !(await this.ctx.store.exists(before.audioKey)))
      throw new ApiError(
        'VALIDATION',
        "This meeting keeps no audio (deleted after its digest, as the account's settings say): it cannot be checked again.",
      );
    const jobId = newId('job');
    const holdRef = `${id}:recheck:${jobId}`;
    const needsHold = !!before && ownedBy(p, before) && !before.deletedAt && !before.charged;
    const hold = needsHold ? { accountId: before.accountId, minutes: before.minutes, reference: holdRef } : null;
    let replaced: string | null = null;
    const row = await this.charges.withFreshHold(hold, (used) =>
      changeOwned(this.ctx, p, id, async (r, trx) => {
        const fresh = needsHold && !r.charged;
        if (fresh) {
          used();
          replaced = r.holdRef;
        }
        const row = await repos.recordings.update(trx, r.id, {
          status: 'QUEUED',
          jobId,
          ...(fresh ? { holdRef } : {}),
          errorCode: null,
          errorRetryable: null,
          autoRetryPending: false,
          namingOpen: false,
          namingDeadline: null,
        });
        await repos.recordings.requestJob(trx, BUS.transcribeJob, {
          jobId,
          step: 'transcribe',
          recordingId: r.id,
          accountId: r.accountId,
          audioKey: r.audioKey,
          keyterms: r.keyterms,
          attempt: 1,
        });
        return { row };
      }),
    );
    if (replaced) await this.charges.release(row.accountId, replaced).catch(() => undefined);
    return row;
  }
}
