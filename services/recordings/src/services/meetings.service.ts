import type { Kysely } from 'kysely';
import type { NatsConnection } from 'nats';
import { BUS } from '@mm/contract';
import { ApiError, hasScope, newId, type Principal } from '@mm/http';
import type { Database } from '../db/schema';
import type { ListedWithHead } from '../db/recording.repository';
import { STEP_STATUS, suggestNames } from '../domain/lifecycle';
import { decodeCursor, encodeCursor } from '../domain/cursor';
import type { LifecycleService, Segment, TranscriptDoc } from './lifecycle.service';
import type { MeetingAccess } from './access';
import type { Views } from './views';

/** Reads and the token's own actions on meetings: status, list, bundle, skip naming, retry. */
export class MeetingsService {
  constructor(
    private readonly deps: { db: Kysely<Database>; nc: NatsConnection; lifecycle: LifecycleService; access: MeetingAccess; views: Views },
  ) {}

  private get repo() {
    return this.deps.lifecycle.repo;
  }

  private async digestTitle(id: string): Promise<string | null> {
    return (await this.repo.digestHeads(this.deps.db, [id])).get(id)?.title ?? null;
  }

  /** Whoever may read the meeting's bundle may read its status; a token without recordings:read only its own sends. */
  async status(p: Principal, id: string) {
    const row = await this.repo.get(this.deps.db, id);
    const r = p.source === 'app' || hasScope(p, 'recordings:read') ? (await this.deps.access.readable(p, row)).r : this.deps.access.own(p, row);
    return this.deps.views.status(r, await this.digestTitle(r.id));
  }

  async listReady(p: Principal, q: { limit?: number; cursor?: string; seriesId?: string }) {
    const after = q.cursor === undefined ? null : decodeCursor(q.cursor);
    if (q.cursor !== undefined && !after) throw new ApiError('VALIDATION', 'cursor is not a cursor of this list');
    if (q.seriesId !== undefined && !(await this.deps.access.seriesAccess(p, q.seriesId))) throw new ApiError('NOT_FOUND', 'No series the token can reach has that id.');
    const limit = q.limit ?? 20;
    const rows = await this.repo.listReady(this.deps.db, q.seriesId ? { seriesId: q.seriesId } : { accountId: p.accountId }, after, limit + 1);
    const page = rows.slice(0, limit);
    const head = (r: ListedWithHead) => (r.digestLanguage === null ? null : { title: r.digestTitle, language: r.digestLanguage });
    return {
      items: page.map((r) => this.deps.views.listItem(r, head(r), p.features.series)),
      nextCursor: rows.length > limit ? encodeCursor(page[page.length - 1]) : null,
    };
  }

  async bundle(p: Principal, id: string) {
    const { r, access } = await this.deps.access.readable(p, await this.repo.get(this.deps.db, id));
    if (r.status !== 'READY') throw Object.assign(new ApiError('NOT_READY', 'The meeting is not ready yet.'), { notReadyStatus: r.status });
    const [t, d] = await Promise.all([
      this.deps.db.selectFrom('transcript').selectAll().where('recordingId', '=', r.id).executeTakeFirstOrThrow(),
      this.deps.db.selectFrom('digest').selectAll().where('recordingId', '=', r.id).executeTakeFirstOrThrow(),
    ]);
    return this.deps.views.bundle(
      r,
      { language: t.language, speakers: t.speakers as TranscriptDoc['speakers'], segments: t.segments as Segment[], stats: t.stats as Record<string, unknown> },
      { type: d.type, language: d.language, title: d.title, sections: d.sections as { kind: string; title: string }[] },
      access,
      p.features.series,
    );
  }

  /** NAMING → GENERATING; unnamed voices take the service's suggestions. */
  async skipNaming(p: Principal, id: string) {
    const r = await this.deps.db.transaction().execute(async (trx) => {
      const cur = this.deps.access.own(p, await this.repo.get(trx, id, { forUpdate: true }));
      if (cur.status !== 'NAMING') throw new ApiError('NOT_NAMING', 'The meeting is not at NAMING.');
      const t = await trx.selectFrom('transcript').select('segments').where('recordingId', '=', cur.id).executeTakeFirstOrThrow();
      return this.deps.lifecycle.startGenerate(trx, cur.id, suggestNames(t.segments as Segment[]));
    });
    return this.deps.views.status(r);
  }

  /**
   * FAILED → the step that failed, at no new cost. AUDIO_CORRUPT answers its status unchanged, and
   * so does a meeting the service is still retrying itself.
   */
  async retry(p: Principal, id: string) {
    const before = this.deps.access.own(p, await this.repo.get(this.deps.db, id));
    if (before.status !== 'FAILED') throw new ApiError('NOT_FAILED', 'The meeting is not FAILED.');
    const jobId = newId('job');
    // A transcription that failed for good released its hold; the retry is held again before it
    // runs, without admission checks (it is not a new meeting, and it costs nothing more).
    const holdRef = `${before.id}:retry:${jobId}`;
    const needsHold = (before.failedStep ?? 'transcribe') === 'transcribe' && !before.charged && !before.autoRetryPending && before.errorCode !== 'AUDIO_CORRUPT';
    const hold = needsHold ? { accountId: before.accountId, minutes: before.minutes, reference: holdRef } : null;
    const r = await this.deps.lifecycle.withFreshHold(hold, (used) =>
      this.deps.db.transaction().execute(async (trx) => {
        const cur = this.deps.access.own(p, await this.repo.get(trx, id, { forUpdate: true }));
        if (cur.status !== 'FAILED') throw new ApiError('NOT_FAILED', 'The meeting is not FAILED.');
        if (cur.errorCode === 'AUDIO_CORRUPT' || cur.autoRetryPending) return cur;
        if ((cur.failedStep ?? 'transcribe') === 'generate') return this.deps.lifecycle.startGenerate(trx, cur.id);
        if (needsHold) used();
        const next = await this.repo.update(trx, cur.id, { status: STEP_STATUS.transcribe, jobId, ...(needsHold ? { holdRef } : {}), errorCode: null, errorRetryable: null });
        await this.repo.requestJob(trx, BUS.transcribeJob, { jobId, step: 'transcribe', recordingId: cur.id, accountId: cur.accountId, audioKey: cur.audioKey, keyterms: cur.keyterms, attempt: 1 });
        return next;
      }),
    );
    return this.deps.views.status(r, await this.digestTitle(r.id));
  }
}
