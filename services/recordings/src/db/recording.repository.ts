import { sql, type Kysely, type Transaction } from 'kysely';
import { enqueue } from '@mm/bus';
import { newId } from '@mm/http';
import { BUS, type EventType, type PipelineJob, type RecordingEvent, type TimerRequest } from '@mm/contract';
import type { Updateable } from 'kysely';
import { LISTED_COLUMNS, type Database, type ListedRecording, type RecordingRow, type RecordingTable } from './schema';
import type { ListPosition } from '../domain/cursor';

export type Db = Kysely<Database> | Transaction<Database>;

/** A listed meeting with its digest's head (both null when it has no digest). */
export type ListedWithHead = ListedRecording & { digestTitle: string | null; digestLanguage: string | null };

export class RecordingRepository {
  constructor(readonly db: Kysely<Database>) {}

  async get(db: Db, id: string, opts: { forUpdate?: boolean } = {}): Promise<RecordingRow | undefined> {
    let q = db.selectFrom('recording').selectAll().where('id', '=', id);
    if (opts.forUpdate) q = q.forUpdate();
    return q.executeTakeFirst();
  }

  async insert(db: Db, row: Omit<RecordingTable, 'attachmentMinutes' | 'charged' | 'autoRetryPending' | 'namingOpen' | 'readyOnce' | 'updatedAt' | 'searchText' | 'searchTurns' | 'eventSeq'> & { attachmentMinutes: number }): Promise<RecordingRow> {
    return db.insertInto('recording').values(row).returningAll().executeTakeFirstOrThrow();
  }

  async update(db: Db, id: string, patch: Updateable<RecordingTable>): Promise<RecordingRow> {
    return db
      .updateTable('recording')
      .set({ ...patch, updatedAt: sql`now()` } as never)
      .where('id', '=', id)
      .returningAll()
      .executeTakeFirstOrThrow();
  }

  /**
   * Writes a public event to the outbox in the caller's transaction, stamped with its place among
   * the meeting's events. Counting takes the meeting's row lock, so two transactions emitting for
   * one meeting number their events in the order they commit.
   */
  async emit(trx: Db, r: RecordingRow, type: EventType, data: Record<string, unknown>): Promise<void> {
    const { eventSeq } = await trx
      .updateTable('recording')
      .set((eb) => ({ eventSeq: eb('eventSeq', '+', 1) }))
      .where('id', '=', r.id)
      .returning('eventSeq')
      .executeTakeFirstOrThrow();
    const event: RecordingEvent = {
      id: newId('evt'),
      type,
      recordingId: r.id,
      accountId: r.accountId,
      tokenId: r.tokenId,
      seriesId: r.seriesId,
      occurredAt: new Date().toISOString(),
      data: { status: r.status, ...data },
      meetingSeq: eventSeq,
    };
    await enqueue(trx, BUS.recordingEvent, event.id, event);
  }

  /** Asks the pipeline for work (in the caller's transaction). */
  async requestJob(trx: Db, entry: typeof BUS.transcribeJob | typeof BUS.generateJob, job: PipelineJob): Promise<void> {
    await enqueue(trx, entry, `job:${job.jobId}`, job);
  }

  async requestTimer(trx: Db, timer: TimerRequest): Promise<void> {
    await enqueue(trx, BUS.timerSet, `timer:${timer.timerId}`, timer);
  }

  /**
   * READY meetings newest first by createdAt, starting right after `after`, each with its digest's
   * title and language (null without a digest), in one round trip: the page's index scan stops at
   * `limit` rows and each row then finds its digest by primary key.
   */
  async listReady(db: Db, where: { accountId?: string; seriesId?: string }, after: ListPosition | null, limit: number): Promise<ListedWithHead[]> {
    let q = db
      .selectFrom('recording as r')
      .leftJoin('digest as d', 'd.recordingId', 'r.id')
      .select([...LISTED_COLUMNS.map((c) => `r.${c}` as const), 'd.title as digestTitle', 'd.language as digestLanguage'])
      .where('r.status', '=', 'READY')
      .where('r.deletedAt', 'is', null);
    if (where.accountId) q = q.where('r.accountId', '=', where.accountId);
    if (where.seriesId) q = q.where('r.seriesId', '=', where.seriesId);
    // A row comparison, so the keyset position is a bound of the ordered index (deep pages stay cheap).
    if (after) q = q.where(sql<boolean>`(r.created_at, r.id) < (${after.createdAt}, ${after.id})`);
    return q.orderBy('r.createdAt', 'desc').orderBy('r.id', 'desc').limit(limit).execute();
  }

  /**
   * Per series: how many READY, not deleted meetings it holds (what listReady with seriesId lists)
   * and when the newest of them happened. Series with none are absent from the map.
   */
  async seriesStats(db: Db, seriesIds: string[]): Promise<Map<string, { meetingCount: number; lastRecordedAt: Date }>> {
    if (seriesIds.length === 0) return new Map();
    const rows = await db
      .selectFrom('recording')
      .select((eb) => ['seriesId', eb.fn.countAll<string>().as('n'), eb.fn.max('recordedAt').as('last')])
      .where('status', '=', 'READY')
      .where('deletedAt', 'is', null)
      .where('seriesId', 'in', seriesIds)
      .groupBy('seriesId')
      .execute();
    return new Map(rows.map((r) => [r.seriesId as string, { meetingCount: Number(r.n), lastRecordedAt: r.last as Date }]));
  }

  async digestHeads(db: Db, ids: string[]): Promise<Map<string, { title: string | null; language: string }>> {
    if (ids.length === 0) return new Map();
    const rows = await db.selectFrom('digest').select(['recordingId', 'title', 'language']).where('recordingId', 'in', ids).execute();
    return new Map(rows.map((r) => [r.recordingId, { title: r.title, language: r.language }]));
  }
}
