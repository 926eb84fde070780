import { sql, type Generated, type Selectable } from 'kysely';
import type { OutboxTable } from '@mm/bus';
import type { FailureCode, OutputLanguage, RecordingKind, RecordingStatus, SubmitNaming } from '@mm/contract';

export interface RecordingTable {
  id: string;
  accountId: string;
  tokenId: string | null;
  source: 'api' | 'upload';
  status: RecordingStatus;
  title: string | null;
  kind: RecordingKind;
  outputLanguage: OutputLanguage;
  naming: SubmitNaming;
  keyterms: string[];
  seriesId: string | null;
  seriesName: string | null;
  seriesTitleStyle: string | null;
  seriesDateCalendar: string | null;
  recordedAt: Date;
  createdAt: Date;
  readyAt: Date | null;
  durationMs: number | null;
  minutes: number;
  attachmentMinutes: Generated<number>;
  audioKey: string;
  attachmentKey: string | null;
  /** The wallet hold this meeting's charge closes (a manual retry after a released hold takes a new one). */
  holdRef: string;
  charged: Generated<boolean>;
  /** The pipeline job whose results are accepted; older jobs' results are ignored. */
  jobId: string | null;
  failedStep: 'transcribe' | 'generate' | null;
  errorCode: FailureCode | null;
  errorRetryable: boolean | null;
  autoRetryPending: Generated<boolean>;
  namingDeadline: Date | null;
  namingOpen: Generated<boolean>;
  readyOnce: Generated<boolean>;
  deletedAt: Date | null;
  /**
   * Distinct normalized tokens of the transcript turns, title and digest, one line per part
   * (libs/text searchTokens); null until READY.
   */
  searchText: Generated<string | null>;
  /** Lines of searchText that are transcript turns (the rest: title, digest); null: one line, any part. */
  searchTurns: Generated<number | null>;
  updatedAt: Generated<Date>;
  /** Public events emitted so far; the next is stamped with this plus one (its `meetingSeq`). */
  eventSeq: Generated<number>;
}

export interface IdempotencyKeyTable {
  accountId: string;
  key: string;
  tokenId: string | null;
  source: 'api' | 'upload';
  recordingId: string | null;
  state: 'storing' | 'done';
  /** The request holding the claim (a takeover gives it a new one). */
  claimId: string;
  createdAt: Generated<Date>;
}

export interface TranscriptTable {
  recordingId: string;
  language: string;
  speakers: unknown;
  segments: unknown;
  stats: unknown;
  version: Generated<number>;
  /**
   * The transcript's characters as an Ask reads them (transcriptAsText's length, speakers' given
   * names included): set by every write of the transcript; null on rows from before (not counted yet).
   */
  readChars: number | null;
}

export interface DigestTable {
  recordingId: string;
  type: string;
  language: string;
  title: string | null;
  sections: unknown;
  markdown: string;
  generatedAt: Generated<Date>;
  /** The digest's characters as an Ask reads them (digestAsText's length); null on rows from before. */
  textChars: number | null;
}

/** A silent meeting (NO_SPEECH) that failed for free: the daily allowance counts these. */
export interface SilentMeetingTable {
  recordingId: string;
  accountId: string;
  failedAt: Generated<Date>;
}

/**
 * A series' owner as the series service answered it (migration 0010): lets the owner's reads skip
 * the bus request; `deleted` once the series is deleted (then the bus is asked again).
 */
export interface SeriesOwnerTable {
  seriesId: string;
  ownerId: string | null;
  deleted: Generated<boolean>;
  createdAt: Generated<Date>;
}

export interface Database {
  recording: RecordingTable;
  seriesOwner: SeriesOwnerTable;
  silentMeeting: SilentMeetingTable;
  idempotencyKey: IdempotencyKeyTable;
  transcript: TranscriptTable;
  digest: DigestTable;
  outbox: OutboxTable;
}

/** The search columns: only search reads them (search.repository.ts). */
type SearchColumns = 'searchText' | 'searchTurns';
/**
 * A meeting's row as every reader but search sees it: without its search text (every distinct
 * word of the transcript, kilobytes a meeting, often TOASTed), which a status, bundle or Ask read
 * would fetch, decompress, parse and drop.
 */
export type RecordingRow = Omit<Selectable<RecordingTable>, SearchColumns>;
/** The columns of a RecordingRow, in the table's order. */
export const ROW_COLUMNS = [
  'id',
  'accountId',
  'tokenId',
  'source',
  'status',
  'title',
  'kind',
  'outputLanguage',
  'naming',
  'keyterms',
  'seriesId',
  'seriesName',
  'seriesTitleStyle',
  'seriesDateCalendar',
  'recordedAt',
  'createdAt',
  'readyAt',
  'durationMs',
  'minutes',
  'attachmentMinutes',
  'audioKey',
  'attachmentKey',
  'holdRef',
  'charged',
  'jobId',
  'failedStep',
  'errorCode',
  'errorRetryable',
  'autoRetryPending',
  'namingDeadline',
  'namingOpen',
  'readyOnce',
  'deletedAt',
  'updatedAt',
  'eventSeq',
] as const satisfies readonly Exclude<keyof RecordingTable, SearchColumns>[];
/**
 * `status = 'READY'` as a literal of the statement's text, for every named (prepared) read of
 * finished meetings: the indexes those reads use hold READY rows only (`where status = 'READY' and
 * deleted_at is null`), and Postgres can use such an index in a statement's generic plan only when
 * the text itself says READY. Sent as a parameter, the generic plan cannot use them, so Postgres
 * planned the statement again on every run (0.3–1 ms of its CPU for the search).
 */
export const READY = sql.lit<RecordingStatus>('READY');

/**
 * The columns a list or search item is made of (Views.listItem, the cursors): a page reads no
 * more. Every column more is parsed, renamed and dropped again for each of a page's rows (a
 * timestamp alone costs a date parse), which was most of a list request's time.
 */
export const LISTED_COLUMNS = [
  'id',
  'title',
  'kind',
  'seriesId',
  'seriesName',
  'seriesTitleStyle',
  'seriesDateCalendar',
  'recordedAt',
  'createdAt',
  'durationMs',
] as const satisfies readonly (keyof RecordingRow)[];
/** A meeting as list pages read it. */
export type ListedRecording = Pick<RecordingRow, (typeof LISTED_COLUMNS)[number]>;
