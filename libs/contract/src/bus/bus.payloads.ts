/**
 * The TypeScript types of the bus messages. Each belongs to one entry of the bus table
 * (`bus.table.ts`), which holds its JSON Schema beside it; no service declares its own. The
 * enums of internal messages are here too.
 */
import type { AskMeetingDoc } from '../artefacts';
import type {
  AccessRole,
  DateCalendar,
  EventType,
  FailureCode,
  NamingMode,
  RecordingKind,
  TitleStyle,
  UiLocale,
  UpdateChange,
} from '../catalog';

export const CREDIT_KINDS = ['trial', 'grant', 'purchase'] as const;
export type CreditKind = (typeof CREDIT_KINDS)[number];
export const PIPELINE_STEPS = ['transcribe', 'generate'] as const;
export type PipelineStep = (typeof PIPELINE_STEPS)[number];

export interface WalletCredit {
  accountId: string;
  minutes: number;
  kind: CreditKind;
  /** Idempotency: a credit with a reference already booked is not booked again. */
  reference: string;
}

/** A hold for a meeting, or the charge of an Ask. */
export interface WalletSpend {
  accountId: string;
  /** Idempotency: the meeting id for a hold, the Ask id for a charge. */
  reference: string;
  minutes: number;
  tokenId: string | null;
  dailyMinuteCap: number | null;
  showBalance: boolean;
  /** Skips admission: a retried meeting's new hold is not a new meeting. */
  force?: boolean;
  /**
   * Only asks whether the spend would be admitted now (daily limit, token cap, balance) and writes
   * nothing: a cheap refusal before expensive work (measuring an upload, running an Ask's engine),
   * with the price or a lower bound of it.
   */
  dryRun?: boolean;
}

export interface WalletClose {
  accountId: string;
  reference: string;
  /** Capture only: the minutes to charge, when fewer than held. */
  minutes?: number;
}

export interface StaleHoldsQuery {
  olderThanSeconds: number;
  limit?: number;
  after?: { createdAt: string; reference: string };
}
export interface StaleHold {
  accountId: string;
  reference: string;
  createdAt: string;
}

export interface AccountRef {
  accountId: string;
}

export interface MemoryLearn {
  accountId: string;
  meetingId: string;
  people: string[];
  terms: string[];
  topics: string[];
}
export interface MemoryLearned {
  applied: boolean;
  replay: boolean;
  added: number;
  strengthened: number;
}

export interface MeetingSettings {
  settings: {
    speakerNamingMode: NamingMode;
    memoryLearningEnabled: boolean;
    summaryEmailEnabled: boolean;
    uiLocale: UiLocale;
    /** The app's setting: the meeting's audio goes once its digest is ready (absent: kept). */
    deleteAudioAfterDigest?: boolean;
  };
  keyterms: string[];
}

export interface AccountContact {
  email: string | null;
  displayName: string | null;
}

/** A READY meeting's digest as the caller reaches it, for an email of its summary sent from the app. */
export interface MeetingSummary {
  recordingId: string;
  displayTitle: string;
  language: string;
  sections: ({ kind: string } & Record<string, unknown>)[];
  speakers: { label: string; name: string | null }[];
  recordedAt: string;
  /** The series the meeting is in, or null. */
  seriesId: string | null;
  /** How the caller reaches the meeting. */
  access: AccessRole;
}

export interface ResolvedSeries {
  id: string;
  name: string;
  titleStyle: TitleStyle;
  dateCalendar: DateCalendar;
  access: AccessRole;
  keyterms: string[];
  inheritAccountKeyterms: boolean;
}

export interface SeriesMember {
  seriesId: string;
  accountId: string;
}

export interface SeriesChange {
  seriesId: string;
  name: string;
  titleStyle: TitleStyle;
  dateCalendar: DateCalendar;
}

export interface SeriesStatsReply {
  stats: Record<string, { meetingCount: number; lastRecordedAt: string | null }>;
}

export interface AskSeriesQuery {
  seriesId: string;
  maxMeetings: number;
  transcriptBudgetChars: number;
}

export interface AskMeetingReply {
  status: string;
  meeting: AskMeetingDoc | null;
}

export interface AskSeriesReply {
  finishedCount: number;
  meetings: AskMeetingDoc[];
}

/** A meeting Ask's price input: the characters it reads once READY (null before, as askMeeting's meeting). */
export interface AskMeetingPriceReply {
  status: string;
  charsRead: number | null;
}

/** A series Ask's price input: what askSeries would return, counted instead of sent. */
export interface AskSeriesPriceReply {
  finishedCount: number;
  meetingCount: number;
  charsRead: number;
}

/** A public meeting event, as the recordings outbox publishes it and the events feed stores it. */
export interface RecordingEvent {
  id: string;
  type: EventType;
  recordingId: string;
  accountId: string;
  tokenId: string | null;
  seriesId: string | null;
  occurredAt: string;
  data: { status: string; error?: unknown; change?: UpdateChange } & Record<string, unknown>;
  /**
   * The event's place among its meeting's events (1, 2, 3...), stamped by the recordings service
   * in the transaction that writes it; the events feed orders a meeting's events by it. Absent
   * from events written before it was added.
   */
  meetingSeq?: number;
}

/**
 * A meeting's digest was made for the first time (never for a regeneration). Unlike the public
 * events it carries content, so it stays internal (account: memory notes, summary email).
 */
export interface DigestCreated {
  id: string;
  version: 1;
  recordingId: string;
  accountId: string;
  /** The meeting's own title, else the digest's (the contract's `title`). */
  title: string | null;
  /** The title as the app shows it (series name and date in a SESSION series). */
  displayTitle: string;
  kind: string;
  language: string;
  sections: ({ kind: string } & Record<string, unknown>)[];
  /** Every voice of the transcript, with the name given it or null. */
  speakers: { label: string; name: string | null }[];
  recordedAt: string;
  occurredAt: string;
}

/** Work for the pipeline: transcribe a meeting's audio, or write its digest. */
export interface PipelineJob {
  jobId: string;
  step: PipelineStep;
  recordingId: string;
  accountId: string;
  attempt: number;
  audioKey?: string;
  keyterms?: string[];
  transcriptKey?: string;
  kind?: RecordingKind;
  outputLanguage?: string;
  memory?: string[];
  regenerate?: boolean;
}

export interface TimerRequest {
  timerId: string;
  recordingId: string;
  kind: 'naming_deadline';
  runAt: string;
  ref: string;
}

export interface JobStarted {
  recordingId: string;
  jobId: string;
  step: PipelineStep;
}
export interface JobTranscribed {
  recordingId: string;
  jobId: string;
  transcriptKey: string;
}
export interface JobGenerated {
  recordingId: string;
  jobId: string;
  digestKey: string;
}
export interface JobFailed {
  recordingId: string;
  jobId: string;
  step: PipelineStep;
  code: FailureCode;
  final: boolean;
}
export interface TimerFired {
  recordingId: string;
  kind: 'naming_deadline';
  ref: string;
}
