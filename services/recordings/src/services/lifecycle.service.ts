import { sql, type Kysely, type Transaction } from 'kysely';
import type { NatsConnection } from 'nats';
import type { Logger } from 'pino';
import { newId } from '@mm/http';
import { BUS, isRetryable, type DigestDoc, type RecordingKind, type TranscriptDoc, type TranscriptSegment } from '@mm/contract';
import { request } from '@mm/bus';
import type { ObjectStore } from '@mm/store';
import type { Database, RecordingRow } from '../db/schema';
import { RecordingRepository } from '../db/recording.repository';
import { refreshSearchText } from './search-text';
import { decideNaming, STEP_STATUS, suggestNames, takesResult, type Step } from '../domain/lifecycle';
import { enqueueDigestCreated } from '../bus/digest-created.publisher';

export type { TranscriptDoc, DigestDoc } from '@mm/contract';
export type Segment = TranscriptSegment;

export interface LifecycleDeps {
  db: Kysely<Database>;
  nc: NatsConnection;
  store: ObjectStore;
  logger: Logger;
  naming: { autoWaitSeconds: number; forceOnDeadlineHours: number; singleVoiceWaitSeconds: number };
  /** Silent meetings an account may have fail for free in 24 hours (contract: "a few"). */
  freeSilentMeetingsPerDay?: number;
}

const DAY_MS = 24 * 3600 * 1000;
const BEFORE_TRANSCRIPT = ['QUEUED', 'TRANSCRIBING', 'FAILED'] as const;
const BEFORE_DIGEST = ['GENERATING', 'FAILED'] as const;

/**
 * Applies the pipeline's results to meetings: the contract's transitions table. Every transition
 * checks the meeting's current status and job first, so a redelivered or late message changes
 * nothing; state, events and the next job commit together.
 */
export class LifecycleService {
  readonly repo: RecordingRepository;
  constructor(private readonly deps: LifecycleDeps) {
    this.repo = new RecordingRepository(deps.db);
  }

  private tx<T>(fn: (trx: Transaction<Database>) => Promise<T>): Promise<T> {
    return this.deps.db.transaction().execute(fn);
  }

  async started(m: { recordingId: string; jobId: string; step: Step }): Promise<void> {
    await this.tx(async (trx) => {
      const r = await this.repo.get(trx, m.recordingId, { forUpdate: true });
      if (!r || r.jobId !== m.jobId) return;
      if (!takesResult(r, m.step === 'transcribe' ? ['QUEUED', 'FAILED'] : BEFORE_DIGEST)) return;
      await this.repo.update(trx, r.id, { status: STEP_STATUS[m.step], errorCode: null, errorRetryable: null, autoRetryPending: false });
    });
  }

  async transcribed(m: { recordingId: string; jobId: string; transcriptKey: string }): Promise<void> {
    const r = await this.repo.get(this.deps.db, m.recordingId);
    if (!r || r.jobId !== m.jobId || !takesResult(r, BEFORE_TRANSCRIPT)) return;
    const doc = await this.deps.store.getJson<TranscriptDoc>(m.transcriptKey);
    // The charge is taken once, at transcript-ready (a deleted meeting is not charged).
    const captured = r.charged || (!r.deletedAt && (await this.capture(r)));
    const settings = await request(this.deps.nc, BUS.settingsGet, { accountId: r.accountId }).catch(() => ({
      settings: { speakerNamingMode: 'AUTO' as const },
    }));
    await this.tx(async (trx) => {
      const cur = await this.repo.get(trx, m.recordingId, { forUpdate: true });
      if (!cur || cur.jobId !== m.jobId || !takesResult(cur, BEFORE_TRANSCRIPT)) return;
      await trx.deleteFrom('transcript').where('recordingId', '=', cur.id).execute();
      await trx
        .insertInto('transcript')
        .values({ recordingId: cur.id, language: doc.language, speakers: JSON.stringify(doc.speakers), segments: JSON.stringify(doc.segments), stats: JSON.stringify(doc.stats) })
        .execute();
      const decision = decideNaming({ naming: cur.naming, mode: settings.settings.speakerNamingMode, speakerCount: doc.speakers.length, now: new Date(), ...this.deps.naming });
      if (decision.stop) {
        const next = await this.repo.update(trx, cur.id, { status: 'NAMING', charged: cur.charged || captured, namingDeadline: decision.deadline, namingOpen: true, errorCode: null, errorRetryable: null, autoRetryPending: false });
        if (decision.notify && !cur.deletedAt) await this.repo.emit(trx, next, 'recording.naming_required', {});
        if (decision.deadline) await this.repo.requestTimer(trx, { timerId: newId('tmr'), recordingId: cur.id, kind: 'naming_deadline', runAt: decision.deadline.toISOString(), ref: decision.deadline.toISOString() });
      } else {
        await this.repo.update(trx, cur.id, { charged: cur.charged || captured });
        await this.startGenerate(trx, cur.id, suggestNames(doc.segments));
      }
    });
    // Restored between the read above and the transaction, or its hold was let go: charge it now.
    if (!captured) await this.settleCharge(m.recordingId);
  }

  /**
   * Holds a meeting again, without admission (a retry or a restore is not a new meeting), unless
   * `hold` is null, then runs `attach`, which calls `used()` once the meeting names the new hold. A
   * hold not used is let go at once (one whose attaching commit failed is left to the reconciler).
   */
  async withFreshHold<T>(hold: { accountId: string; minutes: number; reference: string } | null, attach: (used: () => void) => Promise<T>): Promise<T> {
    if (!hold) return attach(() => undefined);
    const { accountId, reference } = hold;
    await request(this.deps.nc, BUS.walletHold, { accountId, reference, minutes: hold.minutes, tokenId: null, dailyMinuteCap: null, showBalance: false, force: true }, { timeoutMs: 10_000 });
    let taken = false;
    try {
      return await attach(() => {
        taken = true;
      });
    } finally {
      if (!taken) await request(this.deps.nc, BUS.walletRelease, { accountId, reference }, { timeoutMs: 10_000 }).catch(() => undefined);
    }
  }

  /**
   * Captures a meeting's hold (idempotent by reference); true once done, false when the wallet
   * refused because the hold was let go (a capture it refused never marks the meeting charged).
   */
  private async capture(r: RecordingRow): Promise<boolean> {
    const out = await request(this.deps.nc, BUS.walletCapture, { accountId: r.accountId, reference: r.holdRef, minutes: r.minutes - r.attachmentMinutes }, { timeoutMs: 10_000 });
    return out.captured === true;
  }

  /**
   * A meeting past its transcript whose hold was let go (a final failure released it, then the
   * meeting was checked again): it is held again, forced (not a new meeting), under a reference
   * derived from the hold it replaces, so a redelivery or a concurrent settle finds the same hold;
   * then that hold is captured. Answers the new reference.
   */
  private async holdAgainAndCapture(r: RecordingRow): Promise<string> {
    const reference = `${r.holdRef}:again`;
    await this.withFreshHold({ accountId: r.accountId, minutes: r.minutes, reference }, async (used) => {
      const moved = await this.deps.db
        .updateTable('recording')
        .set({ holdRef: reference })
        .where('id', '=', r.id)
        .where('holdRef', 'in', [r.holdRef, reference])
        .where('charged', '=', false)
        .executeTakeFirst();
      if (Number(moved.numUpdatedRows) > 0) used();
    });
    if (!(await this.capture({ ...r, holdRef: reference }))) throw new Error(`the wallet refused to capture ${reference}`);
    return reference;
  }

  /**
   * Charges a meeting that is past its transcript but not charged, and not deleted: one deleted
   * while it was transcribed and restored since (restore holds it again). Idempotent.
   */
  async settleCharge(recordingId: string): Promise<void> {
    const r = await this.repo.get(this.deps.db, recordingId);
    if (!r || r.deletedAt || r.charged) return;
    const pastTranscript = ['NAMING', 'GENERATING', 'READY'].includes(r.status) || (r.status === 'FAILED' && r.failedStep === 'generate');
    if (!pastTranscript) return;
    const holdRef = (await this.capture(r)) ? r.holdRef : await this.holdAgainAndCapture(r);
    await this.deps.db.updateTable('recording').set({ charged: true }).where('id', '=', r.id).where('holdRef', '=', holdRef).execute();
  }

  /** NAMING (or READY, for a regeneration) → GENERATING: writes the transcript as read now and asks for a digest. */
  async startGenerate(trx: Transaction<Database>, recordingId: string, suggested: Record<string, string> = {}, regenerate = false): Promise<RecordingRow> {
    const t = await trx.selectFrom('transcript').selectAll().where('recordingId', '=', recordingId).executeTakeFirstOrThrow();
    const speakers = (t.speakers as TranscriptDoc['speakers']).map((s) => ({ ...s, name: s.name ?? suggested[s.label] ?? null }));
    if (Object.keys(suggested).length) await trx.updateTable('transcript').set({ speakers: JSON.stringify(speakers) }).where('recordingId', '=', recordingId).execute();
    const jobId = newId('job');
    const r = await this.repo.update(trx, recordingId, { status: 'GENERATING', jobId, namingOpen: false, namingDeadline: null, errorCode: null, errorRetryable: null, autoRetryPending: false });
    const transcriptKey = `work/${recordingId}/transcript-${jobId}.json`;
    await this.deps.store.putJson(transcriptKey, { language: t.language, speakers, segments: t.segments });
    const memory = await request(this.deps.nc, BUS.memoryNotes, { accountId: r.accountId }, { timeoutMs: 2000 }).catch(() => ({ items: [] }));
    await this.repo.requestJob(trx, BUS.generateJob, {
      jobId,
      step: 'generate',
      recordingId,
      accountId: r.accountId,
      transcriptKey,
      kind: r.kind as RecordingKind,
      outputLanguage: r.outputLanguage,
      memory: memory.items.map((i) => i.text),
      regenerate,
      attempt: 1,
    });
    return r;
  }

  async generated(m: { recordingId: string; jobId: string; digestKey: string }): Promise<void> {
    const r = await this.repo.get(this.deps.db, m.recordingId);
    if (!r || r.jobId !== m.jobId || !takesResult(r, BEFORE_DIGEST)) return;
    const d = await this.deps.store.getJson<DigestDoc>(m.digestKey);
    await this.tx(async (trx) => {
      const cur = await this.repo.get(trx, m.recordingId, { forUpdate: true });
      if (!cur || cur.jobId !== m.jobId || !takesResult(cur, BEFORE_DIGEST)) return;
      await trx.deleteFrom('digest').where('recordingId', '=', cur.id).execute();
      await trx.insertInto('digest').values({ recordingId: cur.id, type: d.type, language: d.language, title: d.title, sections: JSON.stringify(d.sections), markdown: d.markdown }).execute();
      const next = await this.repo.update(trx, cur.id, { status: 'READY', readyOnce: true, readyAt: cur.readyAt ?? new Date(), errorCode: null, errorRetryable: null, autoRetryPending: false });
      await refreshSearchText(trx, cur.id);
      if (!cur.deletedAt) {
        if (cur.readyOnce) await this.repo.emit(trx, next, 'recording.updated', { change: 'regenerated' });
        else {
          await this.repo.emit(trx, next, 'recording.ready', {});
          await enqueueDigestCreated(trx, next, d);
        }
      }
    });
  }

  async failed(m: { recordingId: string; jobId: string; step: Step; code: string; final: boolean }): Promise<void> {
    const r = await this.repo.get(this.deps.db, m.recordingId);
    if (!r || r.jobId !== m.jobId || !takesResult(r, [STEP_STATUS[m.step], 'QUEUED', 'FAILED'])) return;
    if (m.final && m.step === 'transcribe' && m.code === 'NO_SPEECH' && !r.charged && !r.deletedAt && !(await this.silentForFree(r))) {
      return this.chargeSilent(m);
    }
    // A transcription that failed for good costs nothing.
    if (m.final && m.step === 'transcribe' && !r.charged) await request(this.deps.nc, BUS.walletRelease, { accountId: r.accountId, reference: r.holdRef }, { timeoutMs: 10_000 });
    await this.tx(async (trx) => {
      const cur = await this.repo.get(trx, m.recordingId, { forUpdate: true });
      if (!cur || cur.jobId !== m.jobId || !takesResult(cur, [STEP_STATUS[m.step], 'QUEUED', 'FAILED'])) return;
      const next = await this.repo.update(trx, cur.id, { status: 'FAILED', failedStep: m.step, errorCode: m.code, errorRetryable: isRetryable(m.code), autoRetryPending: !m.final });
      if (m.final && !cur.deletedAt) await this.repo.emit(trx, next, 'recording.failed', { error: { code: m.code, retryable: isRetryable(m.code) } });
    });
  }

  /**
   * Whether a silent meeting fails for free: the first few of an account's 24 hours do (each is
   * remembered, so a redelivered failure stays free); beyond them it is charged (chargeSilent).
   */
  private async silentForFree(r: RecordingRow): Promise<boolean> {
    return this.tx(async (trx) => {
      // One account's silent meetings are counted one at a time, so concurrent ones cannot all fit.
      await sql`select pg_advisory_xact_lock(hashtext(${`silent:${r.accountId}`}))`.execute(trx);
      if (await trx.selectFrom('silentMeeting').select('recordingId').where('recordingId', '=', r.id).executeTakeFirst()) return true;
      const { n } = await trx
        .selectFrom('silentMeeting')
        .select((eb) => eb.fn.countAll<string>().as('n'))
        .where('accountId', '=', r.accountId)
        .where('failedAt', '>', new Date(Date.now() - DAY_MS))
        .executeTakeFirstOrThrow();
      if (Number(n) >= (this.deps.freeSilentMeetingsPerDay ?? 3)) return false;
      await trx.insertInto('silentMeeting').values({ recordingId: r.id, accountId: r.accountId }).execute();
      return true;
    });
  }

  /**
   * A silent meeting beyond the free ones: charged, with an empty transcript and digest, READY.
   * Checked and charged under the meeting's lock, so a delete at that moment is not charged.
   */
  private async chargeSilent(m: { recordingId: string; jobId: string }): Promise<void> {
    let captured = true;
    await this.tx(async (trx) => {
      const cur = await this.repo.get(trx, m.recordingId, { forUpdate: true });
      if (!cur || cur.jobId !== m.jobId || !takesResult(cur, BEFORE_TRANSCRIPT)) return;
      if (cur.deletedAt) {
        // Deleted meanwhile: it fails like a free silent meeting, at no charge.
        await request(this.deps.nc, BUS.walletRelease, { accountId: cur.accountId, reference: cur.holdRef }, { timeoutMs: 10_000 });
        await this.repo.update(trx, cur.id, { status: 'FAILED', failedStep: 'transcribe', errorCode: 'NO_SPEECH', errorRetryable: isRetryable('NO_SPEECH'), autoRetryPending: false });
        return;
      }
      captured = cur.charged || (await this.capture(cur));
      const language = cur.outputLanguage === 'FA' ? 'fa' : 'en';
      const stats = { speakers: [], totalTurns: 0, durationMs: cur.durationMs ?? 0 };
      await trx.deleteFrom('transcript').where('recordingId', '=', cur.id).execute();
      await trx.insertInto('transcript').values({ recordingId: cur.id, language, speakers: '[]', segments: '[]', stats: JSON.stringify(stats) }).execute();
      await this.repo.update(trx, cur.id, { charged: captured });
      await this.startGenerate(trx, cur.id);
    });
    if (!captured) await this.settleCharge(m.recordingId);
  }

  async namingDeadline(m: { recordingId: string; ref: string }): Promise<void> {
    await this.tx(async (trx) => {
      const r = await this.repo.get(trx, m.recordingId, { forUpdate: true });
      if (!r || r.status !== 'NAMING' || !r.namingDeadline || r.namingDeadline.toISOString() !== m.ref) return;
      const t = await trx.selectFrom('transcript').select('segments').where('recordingId', '=', r.id).executeTakeFirstOrThrow();
      await this.startGenerate(trx, r.id, suggestNames(t.segments as Segment[]));
    });
  }
}
