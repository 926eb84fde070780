import { sql, type Kysely, type RawBuilder, type Transaction, type Updateable } from 'kysely';
import { enqueue } from '@mm/bus';
import { keyArray, prepared, preparedByKey, preparedByKeys, unnestKeys } from '@mm/db';
import { newId } from '@mm/http';
import {
  BUS,
  type DigestCreated,
  type EventType,
  type PipelineJob,
  type RecordingEvent,
  type TimerRequest,
} from '@mm/contract';
import { normalizeForSearch, searchTokens } from '@mm/text';
import {
  LISTED_COLUMNS,
  READY,
  ROW_COLUMNS,
  type Database,
  type ListedRecording,
  type RecordingRow,
  type RecordingTable,
} from './schema';
import type { ListPosition } from '../domain/cursor';
import { digestText } from '../domain/digest-text';

export type Db = Kysely<Database> | Transaction<Database>;

/** A listed meeting with its digest's head (both null when it has no digest). */
export type ListedWithHead = ListedRecording & { digestTitle: string | null; digestLanguage: string | null };

/** What a new meeting's row is made of (the rest takes its column's default). */
export type NewRecording = Omit<
  RecordingTable,
  | 'attachmentMinutes'
  | 'charged'
  | 'autoRetryPending'
  | 'namingOpen'
  | 'readyOnce'
  | 'updatedAt'
  | 'searchText'
  | 'searchTurns'
  | 'eventSeq'
> & { attachmentMinutes: number };

/** A meeting's row by id (every read of one meeting), and the same locked for update. */
const ROW = prepared((db: Kysely<Database>, id: string) =>
  db.selectFrom('recording').select(ROW_COLUMNS).where('id', '=', id),
);
/**
 * A meeting's row with its digest's title (null without a digest): the status read, one round trip
 * (shared by the status reads of one turn of the event loop).
 */
const ROW_WITH_DIGEST_TITLE = preparedByKey(
  (db: Kysely<Database>, ids: string[]) =>
    db
      .selectFrom('recording as r')
      .leftJoin('digest as d', 'd.recordingId', 'r.id')
      .select([...ROW_COLUMNS.map((c) => `r.${c}` as const), 'd.title as digestTitle'])
      .where(sql<boolean>`r.id = any(${keyArray(ids)})`),
  (row) => row.id,
);
/**
 * Per series of a list: READY, not deleted meetings and the newest recordedAt (the series
 * service's `seriesStats`, once per series read). Prepared: the list is one array argument, behind a
 * subquery (keyArray) so that Postgres keeps the generic plan.
 */
const SERIES_STATS = prepared((db: Kysely<Database>, seriesIds: string[]) =>
  db
    .selectFrom('recording')
    .select((eb) => ['seriesId', eb.fn.countAll<string>().as('n'), eb.fn.max('recordedAt').as('last')])
    .where('status', '=', READY)
    .where('deletedAt', 'is', null)
    .where(sql<boolean>`series_id = any(${keyArray(seriesIds)})`)
    .groupBy('seriesId'),
);
/**
 * What Ask reads of a meeting besides its row: the transcript's language, speakers and turns and
 * the digest's title and sections (never the transcript's stats or the digest's markdown);
 * `transcriptOf`/`digestOf` are null when the meeting has no transcript or no digest.
 */
const ASK_COLUMNS = [
  't.recordingId as transcriptOf',
  't.language as transcriptLanguage',
  't.speakers as transcriptSpeakers',
  't.segments as transcriptSegments',
  'd.recordingId as digestOf',
  'd.title as digestTitle',
  'd.sections as digestSections',
] as const;
/** A meeting's row with what Ask reads of it (askMeeting), in one round trip. */
const ROW_FOR_ASK = prepared((db: Kysely<Database>, id: string) =>
  db
    .selectFrom('recording as r')
    .leftJoin('transcript as t', 't.recordingId', 'r.id')
    .leftJoin('digest as d', 'd.recordingId', 'r.id')
    .select([...ROW_COLUMNS.map((c) => `r.${c}` as const), ...ASK_COLUMNS])
    .where('r.id', '=', id),
);
/**
 * A series' newest `limit` finished meetings by recordedAt, each beside its transcript and digest,
 * and how many finished meetings it has (the window count runs before the limit): what askSeries
 * and its quote read, each its own columns of it (Postgres computes no column the outer select
 * leaves unread). READY is written in the text (READY, schema.ts): as a parameter, Postgres
 * planned it again on every run (0.2–0.6 ms of its CPU a series quote, more than its execution).
 */
const finishedOfSeries = (db: Kysely<Database>, seriesId: string, limit: number) =>
  db
    .selectFrom((eb) =>
      eb
        .selectFrom('recording')
        .select([...ROW_COLUMNS, sql<string>`count(*) over ()`.as('finishedCount')])
        .where('seriesId', '=', seriesId)
        .where('status', '=', READY)
        .where('deletedAt', 'is', null)
        .orderBy('recordedAt', 'desc')
        .orderBy('id', 'desc')
        .limit(limit)
        .as('r'),
    )
    .leftJoin('transcript as t', 't.recordingId', 'r.id')
    .leftJoin('digest as d', 'd.recordingId', 'r.id')
    .orderBy('r.recordedAt', 'desc')
    .orderBy('r.id', 'desc');
/** The newest finished meetings of a series with what Ask reads of each (askSeries), in one round trip. */
const FINISHED_OF_SERIES_FOR_ASK = prepared((db: Kysely<Database>, seriesId: string, limit: number) =>
  finishedOfSeries(db, seriesId, limit).select([
    ...ROW_COLUMNS.map((c) => `r.${c}` as const),
    'r.finishedCount',
    ...ASK_COLUMNS,
  ]),
);

/** A meeting's row with what Ask reads of its transcript and digest (null where it has none). */
export type RowForAsk = RecordingRow & {
  transcriptOf: string | null;
  transcriptLanguage: string | null;
  transcriptSpeakers: unknown;
  transcriptSegments: unknown;
  digestOf: string | null;
  digestTitle: string | null;
  digestSections: unknown;
};

/**
 * What a quote reads of a meeting (askMeetingPrice): what the access rules and the readiness read
 * of its row, whether it has a transcript and a digest, and the transcript's count (null: not
 * counted yet). No document: the price is the count the Ask's read would make. The quotes of one
 * turn share a statement (by id; the access rules run on each row after, as for the status).
 */
const ROW_FOR_ASK_PRICE = preparedByKey(
  (db: Kysely<Database>, ids: string[]) =>
    db
      .selectFrom('recording as r')
      .leftJoin('transcript as t', 't.recordingId', 'r.id')
      .leftJoin('digest as d', 'd.recordingId', 'r.id')
      .select([
        'r.id',
        'r.accountId',
        'r.seriesId',
        'r.status',
        'r.deletedAt',
        't.recordingId as transcriptOf',
        't.readChars',
        'd.recordingId as digestOf',
      ])
      .where(sql<boolean>`r.id = any(${keyArray(ids)})`),
  (row) => row.id,
);
/**
 * The same meetings with their counts instead of their documents (askSeriesPrice), in one round
 * trip: the quotes of one turn share it, each (series, limit) its own lateral read of the same
 * shape as finishedOfSeries (the window count before the limit), its rows named by the key.
 */
const FINISHED_OF_SERIES_FOR_PRICE = preparedByKeys(
  (db: Kysely<Database>, seriesIds: string[], limits: string[]) =>
    db
      .selectFrom(
        sql<{ seriesId: string; lim: string }>`${unnestKeys(seriesIds, limits)}`.as<'k'>(sql`k(series_id, lim)`),
      )
      .innerJoinLateral(
        (eb) =>
          eb
            .selectFrom('recording')
            .select(['id', 'recordedAt', sql<string>`count(*) over ()`.as('finishedCount')])
            .whereRef('seriesId', '=', 'k.seriesId')
            .where('status', '=', READY)
            .where('deletedAt', 'is', null)
            .orderBy('recordedAt', 'desc')
            .orderBy('id', 'desc')
            .limit(sql<number>`k.lim::int`)
            .as('r'),
        (join) => join.onTrue(),
      )
      .leftJoin('transcript as t', 't.recordingId', 'r.id')
      .leftJoin('digest as d', 'd.recordingId', 'r.id')
      .select([
        'k.seriesId as forSeries',
        'k.lim as forLimit',
        'r.id',
        'r.finishedCount',
        't.recordingId as transcriptOf',
        't.readChars',
        'd.recordingId as digestOf',
        'd.textChars',
      ])
      .orderBy('r.recordedAt', 'desc')
      .orderBy('r.id', 'desc'),
  (row) => [row.forSeries, row.forLimit],
);

/** A meeting's counts as a quote reads them: null documents are absent ones, null counts not counted yet. */
export interface AskCounts {
  id: string;
  transcriptOf: string | null;
  readChars: number | null;
  digestOf: string | null;
  textChars: number | null;
}
/** What a meeting's quote reads of it. */
export type RowForAskPrice = Pick<RecordingRow, 'id' | 'accountId' | 'seriesId' | 'status' | 'deletedAt'> &
  Omit<AskCounts, 'textChars'>;

const ROW_FOR_UPDATE = prepared((db: Kysely<Database>, id: string) =>
  db.selectFrom('recording').select(ROW_COLUMNS).where('id', '=', id).forUpdate(),
);

/**
 * READY meetings newest first by createdAt, of an account or a series, each with its digest's
 * title and language (null without a digest), in one round trip: the page's index scan stops at
 * `limit` rows and each row then finds its digest by primary key. One prepared query per shape:
 * the first page, and a page after a keyset position (a row comparison, so the position is a
 * bound of the ordered index and deep pages stay cheap).
 */
function listReadyQuery(db: Kysely<Database>, by: 'accountId' | 'seriesId', owner: RawBuilder<string>) {
  return db
    .selectFrom('recording as r')
    .leftJoin('digest as d', 'd.recordingId', 'r.id')
    .select([...LISTED_COLUMNS.map((c) => `r.${c}` as const), 'd.title as digestTitle', 'd.language as digestLanguage'])
    .where('r.status', '=', READY)
    .where('r.deletedAt', 'is', null)
    .where(`r.${by}`, '=', owner);
}
/**
 * The page of one key row `k` (its owner and limit; after a position, its time and id too), newest
 * first: what `listReadyShapes` reads laterally for each page of a turn.
 */
function readyPageOfKey(db: Kysely<Database>, by: 'accountId' | 'seriesId', afterPosition: boolean) {
  const page = listReadyQuery(db, by, sql<string>`k.owner`);
  return (afterPosition ? page.where(sql<boolean>`(r.created_at, r.id) < (k.at::timestamptz, k.after_id)`) : page)
    .orderBy('r.createdAt', 'desc')
    .orderBy('r.id', 'desc')
    .limit(sql<number>`k.lim::int`)
    .as('p');
}
/**
 * The pages of one turn (an account's or a series' first page, or a page after a position) in one
 * statement per shape: each page a lateral read of the same shape as alone (its own index scan and
 * limit), by its key (owner, limit; with the position's time and id after a position).
 */
const listReadyShapes = (by: 'accountId' | 'seriesId') => ({
  first: preparedByKeys(
    (db: Kysely<Database>, owners: string[], limits: string[]) =>
      db
        .selectFrom(sql<{ owner: string; lim: string }>`${unnestKeys(owners, limits)}`.as<'k'>(sql`k(owner, lim)`))
        .innerJoinLateral(readyPageOfKey(db, by, false), (join) => join.onTrue())
        .selectAll('p')
        .select(['k.owner as forOwner', 'k.lim as forLimit'])
        .orderBy('p.createdAt', 'desc')
        .orderBy('p.id', 'desc'),
    (row) => [row.forOwner, row.forLimit],
  ),
  after: preparedByKeys(
    (db: Kysely<Database>, owners: string[], times: string[], ids: string[], limits: string[]) =>
      db
        .selectFrom(
          sql<{
            owner: string;
            at: string;
            afterId: string;
            lim: string;
          }>`${unnestKeys(owners, times, ids, limits)}`.as<'k'>(sql`k(owner, at, after_id, lim)`),
        )
        .innerJoinLateral(readyPageOfKey(db, by, true), (join) => join.onTrue())
        .selectAll('p')
        .select(['k.owner as forOwner', 'k.at as forAt', 'k.afterId as forAfterId', 'k.lim as forLimit'])
        .orderBy('p.createdAt', 'desc')
        .orderBy('p.id', 'desc'),
    (row) => [row.forOwner, row.forAt, row.forAfterId, row.forLimit],
  ),
});
const LIST_READY = { accountId: listReadyShapes('accountId'), seriesId: listReadyShapes('seriesId') };

/** The recording rows, their public events and the jobs and timers they ask for (the outbox). */
export class RecordingRepository {
  constructor(readonly db: Kysely<Database>) {}

  async get(db: Db, id: string, opts: { forUpdate?: boolean } = {}): Promise<RecordingRow | undefined> {
    return (opts.forUpdate ? ROW_FOR_UPDATE : ROW).first(db, id);
  }

  /** A meeting's row and its digest's title (null without a digest), joined in one statement. */
  async getWithDigestTitle(db: Db, id: string): Promise<(RecordingRow & { digestTitle: string | null }) | undefined> {
    return ROW_WITH_DIGEST_TITLE.first(db, id);
  }

  /** A meeting's row with what Ask reads of its transcript and digest, joined in one statement. */
  async getForAsk(db: Db, id: string): Promise<RowForAsk | undefined> {
    return (await ROW_FOR_ASK.first(db, id)) as RowForAsk | undefined;
  }

  /** A series' finished meetings for Ask: how many, and the newest `limit` by recordedAt with what Ask reads. */
  async finishedOfSeriesForAsk(
    db: Db,
    seriesId: string,
    limit: number,
  ): Promise<{ count: number; newest: RowForAsk[] }> {
    const rows = await FINISHED_OF_SERIES_FOR_ASK.all(db, seriesId, limit);
    return { count: rows.length === 0 ? 0 : Number(rows[0].finishedCount), newest: rows as RowForAsk[] };
  }

  /** A meeting's access columns, status and counts (askMeetingPrice), in one statement. */
  async getForAskPrice(db: Db, id: string): Promise<RowForAskPrice | undefined> {
    return ROW_FOR_ASK_PRICE.first(db, id);
  }

  /** A series' finished meetings for a quote: how many, and the newest `limit` with their counts. */
  async finishedOfSeriesForPrice(
    db: Db,
    seriesId: string,
    limit: number,
  ): Promise<{ count: number; newest: AskCounts[] }> {
    const rows = await FINISHED_OF_SERIES_FOR_PRICE.all(db, seriesId, String(limit));
    return {
      count: rows.length === 0 ? 0 : Number(rows[0].finishedCount),
      newest: rows.map(({ id, transcriptOf, readChars, digestOf, textChars }) => ({
        id,
        transcriptOf,
        readChars,
        digestOf,
        textChars,
      })),
    };
  }

  async insert(db: Db, row: NewRecording): Promise<RecordingRow> {
    return db.insertInto('recording').values(row).returning(ROW_COLUMNS).executeTakeFirstOrThrow();
  }

  async update(db: Db, id: string, patch: Updateable<RecordingTable>): Promise<RecordingRow> {
    return db
      .updateTable('recording')
      .set({ ...patch, updatedAt: sql<Date>`now()` })
      .where('id', '=', id)
      .returning(ROW_COLUMNS)
      .executeTakeFirstOrThrow();
  }

  /**
   * Points a meeting not yet charged at a new hold, if it still names `from` (or already the new
   * one: a redelivery); true when it does now.
   */
  async moveHold(db: Db, id: string, from: string, to: string): Promise<boolean> {
    const moved = await db
      .updateTable('recording')
      .set({ holdRef: to })
      .where('id', '=', id)
      .where('holdRef', 'in', [from, to])
      .where('charged', '=', false)
      .executeTakeFirst();
    return Number(moved.numUpdatedRows) > 0;
  }

  /** Marks a meeting charged, if its hold is still the one captured. */
  async markCharged(db: Db, id: string, holdRef: string): Promise<void> {
    await db
      .updateTable('recording')
      .set({ charged: true })
      .where('id', '=', id)
      .where('holdRef', '=', holdRef)
      .execute();
  }

  /** What the hold reconciler needs of a meeting. */
  async holdOf(
    db: Db,
    id: string,
  ): Promise<Pick<RecordingRow, 'holdRef' | 'accountId' | 'deletedAt' | 'charged'> | undefined> {
    return db
      .selectFrom('recording')
      .select(['holdRef', 'accountId', 'deletedAt', 'charged'])
      .where('id', '=', id)
      .executeTakeFirst();
  }

  /** A series' new name and style, copied onto its meetings; answers how many. */
  async renameSeries(
    db: Db,
    s: { seriesId: string; name: string; titleStyle: string; dateCalendar: string },
  ): Promise<number> {
    const res = await db
      .updateTable('recording')
      .set({ seriesName: s.name, seriesTitleStyle: s.titleStyle, seriesDateCalendar: s.dateCalendar })
      .where('seriesId', '=', s.seriesId)
      .executeTakeFirst();
    return Number(res.numUpdatedRows);
  }

  /**
   * Deletes for good, in `trx`, up to `limit` meetings deleted before `cutoff` (transcript, digest,
   * silent-meeting count, the meeting), taken FOR UPDATE SKIP LOCKED so replicas share the work and
   * a restore holding the row wins. Answers what was deleted, for the cleanup after the commit.
   */
  async purgeDeleted(
    trx: Transaction<Database>,
    cutoff: Date,
    limit: number,
  ): Promise<Pick<RecordingRow, 'id' | 'accountId' | 'audioKey' | 'attachmentKey' | 'deletedAt'>[]> {
    const due = await trx
      .selectFrom('recording')
      .select(['id', 'accountId', 'audioKey', 'attachmentKey', 'deletedAt'])
      .where('deletedAt', 'is not', null)
      .where('deletedAt', '<', cutoff)
      .orderBy('deletedAt')
      .limit(limit)
      .forUpdate()
      .skipLocked()
      .execute();
    const ids = due.map((r) => r.id);
    if (ids.length === 0) return [];
    await trx.deleteFrom('transcript').where('recordingId', 'in', ids).execute();
    await trx.deleteFrom('digest').where('recordingId', 'in', ids).execute();
    await trx.deleteFrom('silentMeeting').where('recordingId', 'in', ids).execute();
    await trx.deleteFrom('recording').where('id', 'in', ids).execute();
    return due;
  }

  /** An account's deleted meetings, newest deletion first (the trash holds at most `TRASH_DAYS` of them). */
  async trashOf(
    db: Db,
    accountId: string,
    limit = 500,
  ): Promise<(Pick<RecordingRow, 'id' | 'title' | 'status' | 'kind' | 'recordedAt'> & { deletedAt: Date })[]> {
    const rows = await db
      .selectFrom('recording')
      .select(['id', 'title', 'status', 'kind', 'recordedAt', 'deletedAt'])
      .where('accountId', '=', accountId)
      .where('deletedAt', 'is not', null)
      .orderBy('deletedAt', 'desc')
      .orderBy('id', 'desc')
      .limit(limit)
      .execute();
    return rows.map((r) => ({ ...r, deletedAt: r.deletedAt! }));
  }

  /** A deleted series' meetings leave it (its copies go with it); answers how many moved. */
  async leaveSeries(db: Db, seriesId: string): Promise<number> {
    const res = await db
      .updateTable('recording')
      .set({
        seriesId: null,
        seriesName: null,
        seriesTitleStyle: null,
        seriesDateCalendar: null,
        updatedAt: sql<Date>`now()`,
      })
      .where('seriesId', '=', seriesId)
      .executeTakeFirst();
    return Number(res.numUpdatedRows);
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

  /** The digestCreated fact, in the transaction that makes the meeting READY the first time. */
  async announceDigest(trx: Db, fact: DigestCreated): Promise<void> {
    await enqueue(trx, BUS.digestCreated, fact.id, fact);
  }

  /** The meeting's search text, rewritten (refreshSearchText). */
  refreshSearchText(trx: Db, recordingId: string): Promise<void> {
    return refreshSearchText(trx, recordingId);
  }

  /**
   * Whether a silent meeting fails for free: the first `perDay` of an account's 24 hours do (each
   * is remembered, so a redelivered failure stays free). One account's silent meetings are counted
   * one at a time (an advisory lock), so concurrent ones cannot all fit.
   */
  async claimFreeSilent(trx: Db, r: Pick<RecordingRow, 'id' | 'accountId'>, perDay: number): Promise<boolean> {
    await sql`select pg_advisory_xact_lock(hashtext(${`silent:${r.accountId}`}))`.execute(trx);
    if (await trx.selectFrom('silentMeeting').select('recordingId').where('recordingId', '=', r.id).executeTakeFirst())
      return true;
    const { n } = await trx
      .selectFrom('silentMeeting')
      .select((eb) => eb.fn.countAll<string>().as('n'))
      .where('accountId', '=', r.accountId)
      .where('failedAt', '>', new Date(Date.now() - 24 * 3600 * 1000))
      .executeTakeFirstOrThrow();
    if (Number(n) >= perDay) return false;
    await trx.insertInto('silentMeeting').values({ recordingId: r.id, accountId: r.accountId }).execute();
    return true;
  }

  /**
   * READY meetings newest first by createdAt, starting right after `after`, each with its digest's
   * title and language (null without a digest), in one round trip: the page's index scan stops at
   * `limit` rows and each row then finds its digest by primary key.
   */
  async listReady(
    db: Db,
    where: { accountId: string } | { seriesId: string },
    after: ListPosition | null,
    limit: number,
  ): Promise<ListedWithHead[]> {
    const [by, owner] =
      'seriesId' in where ? (['seriesId', where.seriesId] as const) : (['accountId', where.accountId] as const);
    const shape = LIST_READY[by];
    // The key each row was read for is not the row's: left out.
    if (after)
      return (await shape.after.all(db, owner, after.createdAt.toISOString(), after.id, String(limit))).map(
        ({ forOwner: _o, forAt: _a, forAfterId: _i, forLimit: _l, ...row }) => row,
      );
    return (await shape.first.all(db, owner, String(limit))).map(({ forOwner: _o, forLimit: _l, ...row }) => row);
  }

  /**
   * Per series: how many READY, not deleted meetings it holds (what listReady with seriesId lists)
   * and when the newest of them happened. Series with none are absent from the map.
   */
  async seriesStats(db: Db, seriesIds: string[]): Promise<Map<string, { meetingCount: number; lastRecordedAt: Date }>> {
    if (seriesIds.length === 0) return new Map();
    const rows = await SERIES_STATS.all(db, seriesIds);
    return new Map(
      rows.map((r) => [r.seriesId as string, { meetingCount: Number(r.n), lastRecordedAt: r.last as Date }]),
    );
  }
}

/**
 * Rewrites the text search reads for one meeting, inside the transaction that changed its title,
 * transcript or digest: the distinct tokens of each transcript turn, the title and the digest,
 * one line per part (searchTokens), which match every query word exactly as the whole text
 * would, at a fraction of the bytes each search reads; the line of a word tells the snippet's turn.
 */
export async function refreshSearchText(trx: Db, recordingId: string): Promise<void> {
  const r = await trx.selectFrom('recording').select(['title']).where('id', '=', recordingId).executeTakeFirst();
  if (!r) return;
  const t = await trx
    .selectFrom('transcript')
    .select('segments')
    .where('recordingId', '=', recordingId)
    .executeTakeFirst();
  const d = await trx
    .selectFrom('digest')
    .select(['title', 'sections'])
    .where('recordingId', '=', recordingId)
    .executeTakeFirst();
  const turns = ((t?.segments ?? []) as { text: string }[]).map((s) => s.text);
  const parts = [...turns, r.title ?? d?.title ?? '', digestText(d?.sections)].map(normalizeForSearch);
  await trx
    .updateTable('recording')
    .set({ searchText: searchTokens(parts), searchTurns: turns.length })
    .where('id', '=', recordingId)
    .execute();
}
