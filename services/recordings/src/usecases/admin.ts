import { BUS, publicSegment, type ResolvedSeries } from '@mm/contract';
import { ApiError, newId, type Principal } from '@mm/http';
import type { UseCaseContext } from './context';
import type { Charges } from './charges';
import type { DigestUseCase } from './digest';
import { changeOwned, ownedBy, peekOwned } from './owner';

/**
 * What the app does to meetings (the admin API acting as the signed-in owner): delete, restore,
 * rename, move between series, edit a turn, regenerate. Changes to a READY meeting announce
 * recording.updated with the kind of change. (Naming speakers: Naming; check again: Retry.)
 */
export class AdminOps {
  constructor(
    private readonly ctx: UseCaseContext,
    private readonly charges: Charges,
    private readonly digest: DigestUseCase,
  ) {}

  async remove(p: Principal, id: string) {
    const { repos } = this.ctx;
    const r = await changeOwned(this.ctx, p, id, async (r, trx) => {
      const row = await repos.recordings.update(trx, r.id, { deletedAt: new Date() });
      await repos.recordings.emit(trx, row, 'recording.deleted', {});
      return { row };
    });
    // Deleted before its transcript was ready: it costs nothing.
    if (!r.charged) await this.charges.release(r.accountId, r.holdRef, 5000).catch(() => undefined);
    return { id: r.id, deleted: true };
  }

  async restore(p: Principal, id: string) {
    // Deleted before its transcript, the meeting's hold was let go. Restored, it is held again
    // (forced: it is not a new meeting) so that its transcript is charged once: at transcript-ready
    // if it has not got there, else right away (the pipeline went on while it was deleted). A
    // transcription that failed for good costs nothing and needs no hold (a retry holds). One whose
    // first digest was made in the trash announces it now (recording.ready after the restore's event).
    const { db, repos } = this.ctx;
    const before = await repos.recordings.get(db, id);
    const failedForGood =
      before?.status === 'FAILED' && (before.failedStep ?? 'transcribe') === 'transcribe' && !before.autoRetryPending;
    const needsHold = !!before?.deletedAt && ownedBy(p, before) && !before.charged && !failedForGood;
    const holdRef = `${id}:restore:${newId('hold')}`;
    let takesHold = false;
    const hold = needsHold ? { accountId: before.accountId, minutes: before.minutes, reference: holdRef } : null;
    const restored = await this.charges.withFreshHold(hold, (used) =>
      changeOwned(
        this.ctx,
        p,
        id,
        async (r, trx) => {
          if (!r.deletedAt) return { row: r };
          takesHold = needsHold && !r.charged;
          if (takesHold) used();
          const row = await repos.recordings.update(trx, r.id, { deletedAt: null, ...(takesHold ? { holdRef } : {}) });
          await repos.recordings.emit(trx, row, 'recording.updated', { change: 'restored' });
          // Finished in the trash: its recording.ready comes now, after the restore.
          await this.digest.announceFirstReady(trx, row);
          return { row };
        },
        { includeDeleted: true },
      ),
    );
    if (takesHold) await this.charges.settle(id);
    return restored;
  }

  async patch(p: Principal, id: string, body: { title?: string | null; seriesId?: string | null }) {
    const { repos } = this.ctx;
    let series: ResolvedSeries | null | undefined;
    if (body.seriesId !== undefined && body.seriesId !== null) {
      const r = await peekOwned(this.ctx, p, id);
      if (!r) throw new ApiError('NOT_FOUND', 'No such meeting.');
      series = await this.ctx
        .call(BUS.seriesResolve, { accountId: r.accountId, seriesId: body.seriesId })
        .catch(() => null);
      if (!series || series.access !== 'owner') throw new ApiError('NOT_FOUND', 'No such series.');
    } else if (body.seriesId === null) series = null;
    return changeOwned(this.ctx, p, id, async (r, trx) => {
      let row = r;
      let change: string | undefined;
      if (body.title !== undefined) {
        const title = body.title === null ? null : body.title.replace(/\s+/g, ' ').trim() || null;
        if (title !== r.title) {
          row = await repos.recordings.update(trx, r.id, { title });
          change = 'renamed';
          await repos.recordings.refreshSearchText(trx, r.id);
        }
      }
      if (series !== undefined && (series?.id ?? null) !== r.seriesId) {
        row = await repos.recordings.update(trx, r.id, {
          seriesId: series?.id ?? null,
          seriesName: series?.name ?? null,
          seriesTitleStyle: series?.titleStyle ?? null,
          seriesDateCalendar: series?.dateCalendar ?? null,
        });
        if (change && row.status === 'READY') await repos.recordings.emit(trx, row, 'recording.updated', { change });
        change = 'series_changed';
      }
      return { row, change };
    });
  }

  async editSegment(p: Principal, id: string, index: number, text: string) {
    const { repos } = this.ctx;
    return changeOwned(this.ctx, p, id, async (r, trx) => {
      const t = await repos.transcripts.get(trx, r.id);
      const segments = [...(t?.segments ?? [])];
      if (!t || !segments[index]) throw new ApiError('NOT_FOUND', 'No such segment.');
      // The recognizer's pauses timed the old words; the edited text has none.
      segments[index] = { ...publicSegment(segments[index]), text: text.trim() };
      await repos.transcripts.setSegments(trx, r.id, { speakers: t.speakers, segments });
      await repos.recordings.refreshSearchText(trx, r.id);
      return { row: r, change: 'transcript_edited' };
    });
  }

  async regenerate(p: Principal, id: string) {
    return this.digest.run(
      async () => {
        const r = await peekOwned(this.ctx, p, id);
        return r?.status === 'READY' ? this.digest.prepare(r, { regenerate: true }) : null;
      },
      (plan) =>
        changeOwned(this.ctx, p, id, async (r, trx) => {
          if (r.status !== 'READY') throw new ApiError('NOT_READY', 'Only a READY meeting can be regenerated.');
          return { row: await this.digest.commit(trx, plan) };
        }),
    );
  }
}
