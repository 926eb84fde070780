import { BUS, isRetryable, type FailureCode, type TranscriptDoc } from '@mm/contract';
import { newId } from '@mm/http';
import type { RecordingRow } from '../db/schema';
import { inTransaction } from '../db/transaction';
import { decideNaming, STEP_STATUS, takesResult, type Step } from '../domain/lifecycle';
import type { UseCaseContext } from './context';
import type { Charges } from './charges';
import type { DigestUseCase } from './digest';

export interface NamingTimes {
  autoWaitSeconds: number;
  forceOnDeadlineHours: number;
  singleVoiceWaitSeconds: number;
}

const BEFORE_TRANSCRIPT = ['QUEUED', 'TRANSCRIBING', 'FAILED'] as const;

/**
 * Applies the pipeline's results to meetings: the contract's transitions table. Every transition
 * checks the meeting's current status and job first, so a redelivered or late message changes
 * nothing; what needs the store, the wallet or another service is done before the meeting is
 * locked (and checked again under the lock), and state, events and the next job commit together.
 */
export class PipelineResults {
  constructor(
    private readonly ctx: UseCaseContext,
    private readonly charges: Charges,
    private readonly digest: DigestUseCase,
    private readonly opts: { naming: NamingTimes; freeSilentMeetingsPerDay?: number },
  ) {}

  async started(m: { recordingId: string; jobId: string; step: Step }): Promise<void> {
    const { db, repos } = this.ctx;
    await inTransaction(db, async (trx) => {
      const r = await repos.recordings.get(trx, m.recordingId, { forUpdate: true });
      if (!r || r.jobId !== m.jobId) return;
      if (!takesResult(r, m.step === 'transcribe' ? ['QUEUED', 'FAILED'] : ['GENERATING', 'FAILED'])) return;
      await repos.recordings.update(trx, r.id, {
        status: STEP_STATUS[m.step],
        errorCode: null,
        errorRetryable: null,
        autoRetryPending: false,
      });
    });
  }

  /** The transcript: charged once (at transcript-ready; a deleted meeting is not), then NAMING or GENERATING. */
  async transcribed(m: { recordingId: string; jobId: string; transcriptKey: string }): Promise<void> {
    const { db, repos, store, call } = this.ctx;
    const r = await repos.recordings.get(db, m.recordingId);
    if (!r || r.jobId !== m.jobId || !takesResult(r, BEFORE_TRANSCRIPT)) return;
    const doc = await store.getJson<TranscriptDoc>(m.transcriptKey);
    const captured = r.charged || (!r.deletedAt && (await this.charges.capture(r)));
    const settings = await call(BUS.settingsGet, { accountId: r.accountId }).catch(() => ({
      settings: { speakerNamingMode: 'AUTO' as const },
    }));
    // The meeting's naming choice never changes after submit: the decision is taken before the lock.
    const decision = decideNaming({
      naming: r.naming,
      mode: settings.settings.speakerNamingMode,
      speakerCount: doc.speakers.length,
      now: new Date(),
      ...this.opts.naming,
    });
    await this.digest.run(
      async () => (decision.stop ? null : this.digest.prepare(r, { transcript: doc, suggest: true })),
      (plan) =>
        inTransaction(db, async (trx) => {
          const cur = await repos.recordings.get(trx, m.recordingId, { forUpdate: true });
          if (!cur || cur.jobId !== m.jobId || !takesResult(cur, BEFORE_TRANSCRIPT)) return;
          await repos.transcripts.replace(trx, cur.id, doc);
          if (!decision.stop) {
            await repos.recordings.update(trx, cur.id, { charged: cur.charged || captured });
            await this.digest.commit(trx, plan);
            return;
          }
          const next = await repos.recordings.update(trx, cur.id, {
            status: 'NAMING',
            charged: cur.charged || captured,
            namingDeadline: decision.deadline,
            namingOpen: true,
            errorCode: null,
            errorRetryable: null,
            autoRetryPending: false,
          });
          if (decision.notify && !cur.deletedAt)
            await repos.recordings.emit(trx, next, 'recording.naming_required', {});
          if (decision.deadline)
            await repos.recordings.requestTimer(trx, {
              timerId: newId('tmr'),
              recordingId: cur.id,
              kind: 'naming_deadline',
              runAt: decision.deadline.toISOString(),
              ref: decision.deadline.toISOString(),
            });
        }),
    );
    // Restored between the read above and the transaction, or its hold was let go: charge it now.
    if (!captured) await this.charges.settle(m.recordingId);
  }

  async failed(m: {
    recordingId: string;
    jobId: string;
    step: Step;
    code: FailureCode;
    final: boolean;
  }): Promise<void> {
    const { db, repos } = this.ctx;
    const r = await repos.recordings.get(db, m.recordingId);
    if (!r || r.jobId !== m.jobId || !takesResult(r, [STEP_STATUS[m.step], 'QUEUED', 'FAILED'])) return;
    if (
      m.final &&
      m.step === 'transcribe' &&
      m.code === 'NO_SPEECH' &&
      !r.charged &&
      !r.deletedAt &&
      !(await this.silentForFree(r))
    ) {
      return this.chargeSilent(m, r);
    }
    // A transcription that failed for good costs nothing.
    if (m.final && m.step === 'transcribe' && !r.charged) await this.charges.release(r.accountId, r.holdRef);
    await inTransaction(db, async (trx) => {
      const cur = await repos.recordings.get(trx, m.recordingId, { forUpdate: true });
      if (!cur || cur.jobId !== m.jobId || !takesResult(cur, [STEP_STATUS[m.step], 'QUEUED', 'FAILED'])) return;
      const next = await repos.recordings.update(trx, cur.id, {
        status: 'FAILED',
        failedStep: m.step,
        errorCode: m.code,
        errorRetryable: isRetryable(m.code),
        autoRetryPending: !m.final,
      });
      if (m.final && !cur.deletedAt)
        await repos.recordings.emit(trx, next, 'recording.failed', {
          error: { code: m.code, retryable: isRetryable(m.code) },
        });
    });
  }

  /**
   * Whether a silent meeting fails for free: the first few of an account's 24 hours do (each is
   * remembered, so a redelivered failure stays free); beyond them it is charged (chargeSilent).
   */
  private silentForFree(r: RecordingRow): Promise<boolean> {
    return inTransaction(this.ctx.db, (trx) =>
      this.ctx.repos.recordings.claimFreeSilent(trx, r, this.opts.freeSilentMeetingsPerDay ?? 3),
    );
  }

  /**
   * A silent meeting beyond the free ones: charged, with an empty transcript and digest, READY.
   * The capture comes first, outside the lock (as at transcript-ready); a meeting deleted before it
   * was read is not charged (failed() sends it the free way). One deleted in the moment between
   * the capture and the lock is charged like one deleted after its transcript; one whose capture
   * the wallet refused (its hold was let go) fails for free when deleted meanwhile.
   */
  private async chargeSilent(m: { recordingId: string; jobId: string }, r: RecordingRow): Promise<void> {
    const { db, repos } = this.ctx;
    const captured = r.charged || (await this.charges.capture(r));
    const transcript = { language: r.outputLanguage === 'FA' ? 'fa' : 'en', speakers: [], segments: [] };
    const stats = { speakers: [], totalTurns: 0, durationMs: r.durationMs ?? 0 };
    let freeRelease: RecordingRow | null = null;
    let applied = false;
    await this.digest.run(
      () => this.digest.prepare(r, { transcript }),
      (plan) =>
        inTransaction(db, async (trx) => {
          freeRelease = null;
          applied = false;
          const cur = await repos.recordings.get(trx, m.recordingId, { forUpdate: true });
          if (!cur || cur.jobId !== m.jobId || !takesResult(cur, BEFORE_TRANSCRIPT)) return;
          applied = true;
          if (cur.deletedAt && !cur.charged && !captured) {
            await repos.recordings.update(trx, cur.id, {
              status: 'FAILED',
              failedStep: 'transcribe',
              errorCode: 'NO_SPEECH',
              errorRetryable: isRetryable('NO_SPEECH'),
              autoRetryPending: false,
            });
            freeRelease = cur;
            return;
          }
          await repos.transcripts.replace(trx, cur.id, { ...transcript, stats });
          await repos.recordings.update(trx, cur.id, { charged: cur.charged || captured });
          await this.digest.commit(trx, plan);
        }),
    );
    const released = freeRelease as RecordingRow | null;
    if (released) await this.charges.release(released.accountId, released.holdRef);
    else if (applied && !captured) await this.charges.settle(m.recordingId);
  }
}
