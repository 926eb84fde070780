import type { Kysely, Transaction } from 'kysely';
import type { NatsConnection } from 'nats';
import { ApiError, newId, type Principal } from '@mm/http';
import { request } from '@mm/bus';
import { BUS, publicSegment } from '@mm/contract';
import type { Database, RecordingRow } from '../db/schema';
import { refreshSearchText } from './search-text';
import type { LifecycleService, Segment, TranscriptDoc } from './lifecycle.service';

/** The operator (the admin API with no account in the path) reaches every meeting. */
export const OPERATOR_ACCOUNT = '*';
const ownedBy = (p: Principal, r: RecordingRow) => p.accountId === OPERATOR_ACCOUNT || r.accountId === p.accountId;

/**
 * What the app does to meetings (the admin API acting as the signed-in owner): delete, restore,
 * rename, move between series, name speakers, edit a turn, regenerate, check again. Changes to a
 * READY meeting announce recording.updated with the kind of change.
 */
export class AdminOpsService {
  constructor(private readonly deps: { db: Kysely<Database>; nc: NatsConnection; lifecycle: LifecycleService }) {}

  private get repo() {
    return this.deps.lifecycle.repo;
  }

  private async change(p: Principal, id: string, fn: (r: RecordingRow, trx: Transaction<Database>) => Promise<{ row: RecordingRow; change?: string } | null>, opts: { includeDeleted?: boolean } = {}) {
    return this.deps.db.transaction().execute(async (trx) => {
      const r = await this.repo.get(trx, id, { forUpdate: true });
      if (!r || !ownedBy(p, r) || (!opts.includeDeleted && r.deletedAt)) throw new ApiError('NOT_FOUND', 'No such meeting.');
      const out = await fn(r, trx);
      if (out?.change && out.row.status === 'READY' && !out.row.deletedAt) await this.repo.emit(trx, out.row, 'recording.updated', { change: out.change });
      return out?.row ?? r;
    });
  }

  async remove(p: Principal, id: string) {
    const r = await this.change(p, id, async (r, trx) => {
      const row = await this.repo.update(trx, r.id, { deletedAt: new Date() });
      await this.repo.emit(trx, row, 'recording.deleted', {});
      return { row };
    });
    // Deleted before its transcript was ready: it costs nothing.
    if (!r.charged) await request(this.deps.nc, BUS.walletRelease, { accountId: r.accountId, reference: r.holdRef }).catch(() => undefined);
    return { id: r.id, deleted: true };
  }

  async restore(p: Principal, id: string) {
    // Deleted before its transcript, the meeting's hold was let go. Restored, it is held again
    // (forced: it is not a new meeting) so that its transcript is charged once: at transcript-ready
    // if it has not got there, else right away (the pipeline went on while it was deleted). A
    // transcription that failed for good costs nothing and needs no hold (a retry holds).
    const before = await this.repo.get(this.deps.db, id);
    const failedForGood = before?.status === 'FAILED' && (before.failedStep ?? 'transcribe') === 'transcribe' && !before.autoRetryPending;
    const needsHold = !!before?.deletedAt && ownedBy(p, before) && !before.charged && !failedForGood;
    const holdRef = `${id}:restore:${newId('hold')}`;
    let takesHold = false;
    const hold = needsHold ? { accountId: before.accountId, minutes: before.minutes, reference: holdRef } : null;
    const restored = await this.deps.lifecycle.withFreshHold(hold, (used) =>
      this.change(
        p,
        id,
        async (r, trx) => {
          if (!r.deletedAt) return { row: r };
          takesHold = needsHold && !r.charged;
          if (takesHold) used();
          const row = await this.repo.update(trx, r.id, { deletedAt: null, ...(takesHold ? { holdRef } : {}) });
          await this.repo.emit(trx, row, 'recording.updated', { change: 'restored' });
          return { row };
        },
        { includeDeleted: true },
      ),
    );
    if (takesHold) await this.deps.lifecycle.settleCharge(id);
    return restored;
  }

  async patch(p: Principal, id: string, body: { title?: string | null; seriesId?: string | null }) {
    let series: { id: string; name: string; titleStyle: string; dateCalendar: string; access: string } | null | undefined;
    if (body.seriesId !== undefined && body.seriesId !== null) {
      const r = await this.repo.get(this.deps.db, id);
      if (!r || !ownedBy(p, r) || r.deletedAt) throw new ApiError('NOT_FOUND', 'No such meeting.');
      series = await request(this.deps.nc, BUS.seriesResolve, { accountId: r.accountId, seriesId: body.seriesId }).catch(() => null);
      if (!series || series.access !== 'owner') throw new ApiError('NOT_FOUND', 'No such series.');
    } else if (body.seriesId === null) series = null;
    return this.change(p, id, async (r, trx) => {
      let row = r;
      let change: string | undefined;
      if (body.title !== undefined) {
        const title = body.title === null ? null : body.title.replace(/\s+/g, ' ').trim() || null;
        if (title !== r.title) {
          row = await this.repo.update(trx, r.id, { title });
          change = 'renamed';
          await refreshSearchText(trx, r.id);
        }
      }
      if (series !== undefined && (series?.id ?? null) !== r.seriesId) {
        row = await this.repo.update(trx, r.id, { seriesId: series?.id ?? null, seriesName: series?.name ?? null, seriesTitleStyle: series?.titleStyle ?? null, seriesDateCalendar: series?.dateCalendar ?? null });
        if (change && row.status === 'READY') await this.repo.emit(trx, row, 'recording.updated', { change });
        change = 'series_changed';
      }
      return { row, change };
    });
  }

  async nameSpeakers(p: Principal, id: string, names: Record<string, string>) {
    return this.change(p, id, async (r, trx) => {
      if (r.status !== 'NAMING' && r.status !== 'READY') throw new ApiError('NOT_NAMING', 'Speakers can be named at NAMING or READY.');
      const t = await trx.selectFrom('transcript').select('speakers').where('recordingId', '=', r.id).executeTakeFirstOrThrow();
      // A label the meeting does not have names nobody (the sheet may list more voices than were heard).
      const current = t.speakers as TranscriptDoc['speakers'];
      const speakers = current.map((s) => (names[s.label] !== undefined ? { ...s, name: names[s.label].replace(/\s+/g, ' ').trim() || null } : s));
      const renamed = speakers.some((s, i) => s.name !== current[i].name);
      if (renamed) await trx.updateTable('transcript').set({ speakers: JSON.stringify(speakers) }).where('recordingId', '=', r.id).execute();
      // The naming sheet sent, changed or not, lets a meeting at NAMING go on.
      if (r.status === 'NAMING') return { row: await this.deps.lifecycle.startGenerate(trx, r.id) };
      // Names as they were change nothing: no event, no new price for Ask.
      return { row: r, change: renamed ? 'speakers_renamed' : undefined };
    });
  }

  async editSegment(p: Principal, id: string, index: number, text: string) {
    return this.change(p, id, async (r, trx) => {
      const t = await trx.selectFrom('transcript').select('segments').where('recordingId', '=', r.id).executeTakeFirst();
      const segments = (t?.segments ?? []) as Segment[];
      if (!segments[index]) throw new ApiError('NOT_FOUND', 'No such segment.');
      // The recognizer's pauses timed the old words; the edited text has none.
      segments[index] = { ...publicSegment(segments[index]), text: text.trim() };
      await trx.updateTable('transcript').set({ segments: JSON.stringify(segments) }).where('recordingId', '=', r.id).execute();
      await refreshSearchText(trx, r.id);
      return { row: r, change: 'transcript_edited' };
    });
  }

  async regenerate(p: Principal, id: string) {
    return this.change(p, id, async (r, trx) => {
      if (r.status !== 'READY') throw new ApiError('NOT_READY', 'Only a READY meeting can be regenerated.');
      return { row: await this.deps.lifecycle.startGenerate(trx, r.id, {}, true) };
    });
  }

  /**
   * "Check again": back to QUEUED and a fresh transcription. A charged meeting is not charged
   * twice; one not charged is held again first (its hold may have been let go by a final failure,
   * and a capture of a released hold would make the meeting free), and its old hold goes.
   */
  async recheck(p: Principal, id: string) {
    const before = await this.repo.get(this.deps.db, id);
    const jobId = newId('job');
    const holdRef = `${id}:recheck:${jobId}`;
    const needsHold = !!before && ownedBy(p, before) && !before.deletedAt && !before.charged;
    const hold = needsHold ? { accountId: before.accountId, minutes: before.minutes, reference: holdRef } : null;
    let replaced: string | null = null;
    const row = await this.deps.lifecycle.withFreshHold(hold, (used) =>
      this.change(p, id, async (r, trx) => {
        const fresh = needsHold && !r.charged;
        if (fresh) {
          used();
          replaced = r.holdRef;
        }
        const row = await this.repo.update(trx, r.id, { status: 'QUEUED', jobId, ...(fresh ? { holdRef } : {}), errorCode: null, errorRetryable: null, autoRetryPending: false, namingOpen: false, namingDeadline: null });
        await this.repo.requestJob(trx, BUS.transcribeJob, { jobId, step: 'transcribe', recordingId: r.id, accountId: r.accountId, audioKey: r.audioKey, keyterms: r.keyterms, attempt: 1 });
        return { row };
      }),
    );
    if (replaced) await request(this.deps.nc, BUS.walletRelease, { accountId: row.accountId, reference: replaced }, { timeoutMs: 10_000 }).catch(() => undefined);
    return row;
  }
}
