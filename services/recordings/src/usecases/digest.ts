import { BUS, type DigestDoc } from '@mm/contract';
import { newId } from '@mm/http';
import type { RecordingRow } from '../db/schema';
import type { Tx } from '../db/transaction';
import { inTransaction } from '../db/transaction';
import type { Speaker, Transcript } from '../db/transcripts.repository';
import { suggestNames, takesResult } from '../domain/lifecycle';
import { digestCreatedFact } from '../domain/digest-created';
import type { UseCaseContext } from './context';

/** The transcript a digest was prepared from changed before the meeting was locked: prepare again. */
export class StalePlan extends Error {
  constructor() {
    super('the meeting changed while its digest was prepared');
  }
}

/**
 * A digest job made ready outside any transaction: its transcript file is in the store, the
 * account's memory notes are read. `commit` hands it to the pipeline in the meeting's transaction.
 */
export interface DigestPlan {
  recordingId: string;
  jobId: string;
  transcriptKey: string;
  speakers: Speaker[];
  /** The turns the plan was made from (the stored ones at commit: the version is checked), for the count. */
  segments: Transcript['segments'];
  /** Speakers differ from the stored ones (suggested or given names): written at commit. */
  writeSpeakers: boolean;
  /** The stored transcript's version the plan was made from; null: the commit writes a new transcript first. */
  fromVersion: number | null;
  memory: string[];
  regenerate: boolean;
  committed: boolean;
}

export interface PlanOptions {
  /** A transcript not stored yet (the commit writes it): the pipeline's, or a silent meeting's. */
  transcript?: Pick<Transcript, 'language' | 'speakers' | 'segments'>;
  /** Unnamed voices take the service's suggestions. */
  suggest?: boolean;
  /** Names given on the naming sheet. */
  rename?: (speakers: Speaker[]) => Speaker[];
  regenerate?: boolean;
}

const BEFORE_DIGEST = ['GENERATING', 'FAILED'] as const;
const MAX_PLANS = 5;

/**
 * Start and finish a meeting's digest. Starting it (NAMING, or READY for a regeneration, or a
 * failed digest → GENERATING) writes the transcript as it is for the pipeline and reads the
 * account's memory notes *before* the meeting is locked, then checks under the lock that the
 * transcript is still the one prepared and commits the state and the job together.
 */
export class DigestUseCase {
  constructor(private readonly ctx: UseCaseContext) {}

  /** Outside any transaction: the job's transcript file and memory notes. */
  async prepare(r: Pick<RecordingRow, 'id' | 'accountId'>, opts: PlanOptions = {}): Promise<DigestPlan> {
    const { db, repos, store, call } = this.ctx;
    const stored = opts.transcript ? null : await repos.transcripts.get(db, r.id);
    if (!opts.transcript && !stored) throw new Error(`meeting ${r.id} has no transcript`);
    const t = (opts.transcript ?? stored)!;
    const suggested = opts.suggest ? suggestNames(t.segments) : {};
    const named = opts.rename ? opts.rename(t.speakers) : t.speakers;
    const speakers = named.map((s) => ({ ...s, name: s.name ?? suggested[s.label] ?? null }));
    const jobId = newId('job');
    const transcriptKey = `work/${r.id}/transcript-${jobId}.json`;
    const [memory] = await Promise.all([
      call(BUS.memoryNotes, { accountId: r.accountId }, { timeoutMs: 2000 }).catch(() => ({ items: [] })),
      store.putJson(transcriptKey, { language: t.language, speakers, segments: t.segments }),
    ]);
    return {
      recordingId: r.id,
      jobId,
      transcriptKey,
      speakers,
      segments: t.segments,
      writeSpeakers: JSON.stringify(speakers) !== JSON.stringify(t.speakers),
      fromVersion: stored ? stored.version : null,
      memory: memory.items.map((i) => i.text),
      regenerate: opts.regenerate ?? false,
      committed: false,
    };
  }

  /**
   * In the meeting's transaction, its row locked: → GENERATING, and the job asked for. Throws
   * StalePlan when there is no plan or its transcript changed since (`run` prepares again).
   */
  async commit(trx: Tx, plan: DigestPlan | null): Promise<RecordingRow> {
    if (!plan) throw new StalePlan();
    const { repos } = this.ctx;
    if (plan.fromVersion !== null && (await repos.transcripts.get(trx, plan.recordingId))?.version !== plan.fromVersion)
      throw new StalePlan();
    if (plan.writeSpeakers)
      await repos.transcripts.setSpeakers(trx, plan.recordingId, { speakers: plan.speakers, segments: plan.segments });
    const r = await repos.recordings.update(trx, plan.recordingId, {
      status: 'GENERATING',
      jobId: plan.jobId,
      namingOpen: false,
      namingDeadline: null,
      errorCode: null,
      errorRetryable: null,
      autoRetryPending: false,
    });
    await repos.recordings.requestJob(trx, BUS.generateJob, {
      jobId: plan.jobId,
      step: 'generate',
      recordingId: plan.recordingId,
      accountId: r.accountId,
      transcriptKey: plan.transcriptKey,
      kind: r.kind,
      outputLanguage: r.outputLanguage,
      memory: plan.memory,
      regenerate: plan.regenerate,
      attempt: 1,
    });
    plan.committed = true;
    return r;
  }

  /**
   * Prepares (or not: `prepare` answers null when the meeting needs no digest as it looks now),
   * then commits; again while the plan goes stale. A plan not committed leaves no file behind.
   */
  async run<T>(prepare: () => Promise<DigestPlan | null>, commit: (plan: DigestPlan | null) => Promise<T>): Promise<T> {
    for (let attempt = 1; ; attempt++) {
      const plan = await prepare();
      let out: T;
      try {
        out = await commit(plan);
      } catch (err) {
        if (plan) await this.discard(plan);
        if (err instanceof StalePlan && attempt < MAX_PLANS) continue;
        throw err;
      }
      if (plan && !plan.committed) await this.discard(plan);
      return out;
    }
  }

  private async discard(plan: DigestPlan): Promise<void> {
    plan.committed = false;
    await this.ctx.store.remove(plan.transcriptKey).catch(() => undefined);
  }

  /**
   * The pipeline's digest: GENERATING (or FAILED) → READY, with its events; then the meeting's
   * audio goes, where the account's app setting says so (dropAudioIfAsked).
   */
  async finish(m: { recordingId: string; jobId: string; digestKey: string }): Promise<void> {
    const { db, repos, store } = this.ctx;
    const r = await repos.recordings.get(db, m.recordingId);
    if (!r || r.jobId !== m.jobId || !takesResult(r, BEFORE_DIGEST)) return;
    const d = await store.getJson<DigestDoc>(m.digestKey);
    let ready = false;
    await inTransaction(db, async (trx) => {
      const cur = await repos.recordings.get(trx, m.recordingId, { forUpdate: true });
      if (!cur || cur.jobId !== m.jobId || !takesResult(cur, BEFORE_DIGEST)) return;
      ready = true;
      await repos.digests.replace(trx, cur.id, d);
      const next = await repos.recordings.update(trx, cur.id, {
        status: 'READY',
        // In the trash its first digest is not announced: restoring it does (announceFirstReady).
        readyOnce: cur.readyOnce || !cur.deletedAt,
        readyAt: cur.readyAt ?? new Date(),
        errorCode: null,
        errorRetryable: null,
        autoRetryPending: false,
      });
      await repos.recordings.refreshSearchText(trx, cur.id);
      if (cur.deletedAt) return;
      if (cur.readyOnce) return repos.recordings.emit(trx, next, 'recording.updated', { change: 'regenerated' });
      await this.announceReady(trx, next, d);
    });
    if (ready) await this.dropAudioIfAsked(r);
  }

  /**
   * "Delete the audio after the digest" (the account's app setting, read now): the meeting's
   * audio is removed from the store once it is READY. Its transcript, digest, search and Ask stay;
   * "check again" (which transcribes again) is refused from then on. Anything that fails here
   * keeps the audio (a later digest tries again), never the other way round.
   */
  private async dropAudioIfAsked(r: RecordingRow): Promise<void> {
    try {
      const { settings } = await this.ctx.call(BUS.settingsGet, { accountId: r.accountId });
      if (settings.deleteAudioAfterDigest !== true) return;
      await this.ctx.store.remove(r.audioKey);
      this.ctx.logger.info({ recordingId: r.id }, 'audio deleted after the digest, as the account asks');
    } catch (err) {
      this.ctx.logger.warn({ recordingId: r.id, err: String(err) }, 'audio kept: its deletion after the digest failed');
    }
  }

  /**
   * A meeting restored from the trash whose first digest was made while it was there (the
   * pipeline goes on for a deleted meeting): its recording.ready, and the digest's facts, were held
   * back, and are announced now, after the restore's own event. Nothing when it has none to announce.
   */
  async announceFirstReady(trx: Tx, r: RecordingRow): Promise<void> {
    if (r.deletedAt || r.status !== 'READY' || r.readyOnce) return;
    const d = await this.ctx.repos.digests.get(trx, r.id);
    if (!d) return;
    const next = await this.ctx.repos.recordings.update(trx, r.id, { readyOnce: true });
    await this.announceReady(trx, next, d);
  }

  /** The first digest of a meeting: recording.ready, and the digest's facts for the services that learn from it. */
  private async announceReady(
    trx: Tx,
    r: RecordingRow,
    d: { title: string | null; language: string; sections: unknown[] },
  ): Promise<void> {
    const { repos } = this.ctx;
    await repos.recordings.emit(trx, r, 'recording.ready', {});
    const speakers = (await repos.transcripts.get(trx, r.id))?.speakers ?? [];
    await repos.recordings.announceDigest(trx, digestCreatedFact(r, d, speakers));
  }
}
