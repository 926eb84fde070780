import type { Kysely } from 'kysely';
import type { NatsConnection, Subscription } from 'nats';
import type { Logger } from 'pino';
import { serve } from '@mm/bus';
import {
  BUS,
  digestAsText,
  publicSegment,
  transcriptAsText,
  type AskMeetingDoc,
  type AskMeetingReply,
  type AskSeriesQuery,
  type AskSeriesReply,
  type TranscriptSegment,
} from '@mm/contract';
import type { Principal } from '@mm/http';
import type { Database } from '../db/schema';
import type { Repositories } from '../usecases/context';
import type { MeetingAccess } from '../services/access';
import type { RowForAsk } from '../db/recordings.repository';
import { transcriptsThatFit } from '../domain/ask-budget';
import { askMeetingPrice, askSeriesPrice } from '../usecases/ask-quotes';

/** The turns as Ask reads them: the contract's fields (the digest's pauses stay here). */
function askSegments(segments: unknown): TranscriptSegment[] {
  return (segments as TranscriptSegment[]).map(publicSegment);
}

/** A meeting's transcript as Ask reads it, or null when it has no transcript or no digest. */
function transcriptOf(
  r: RowForAsk,
): { speakers: { label: string; name: string | null }[]; segments: TranscriptSegment[] } | null {
  if (r.transcriptOf === null || r.digestOf === null) return null;
  return {
    speakers: r.transcriptSpeakers as { label: string; name: string | null }[],
    segments: askSegments(r.transcriptSegments),
  };
}

/**
 * `askMeeting` {recordingId} → {status, meeting}: a meeting the caller can
 * reach (its own, or one of a joined series; NOT_FOUND otherwise), with its transcript and digest
 * once READY (meeting null before).
 */
export async function askMeeting(
  db: Kysely<Database>,
  repos: Repositories,
  access: MeetingAccess,
  p: Principal,
  recordingId: string,
): Promise<AskMeetingReply> {
  // The row, its transcript and its digest in one statement (the access rules run on the row).
  const row = await repos.recordings.getForAsk(db, recordingId);
  const { r } = await access.readable(p, row);
  if (r.status !== 'READY') return { status: r.status, meeting: null };
  const joined = row!;
  const transcript = transcriptOf(joined);
  if (!transcript) return { status: r.status, meeting: null };
  return {
    status: r.status,
    meeting: {
      recordingId: r.id,
      recordedAt: r.recordedAt.toISOString(),
      title: r.title ?? joined.digestTitle ?? null,
      language: joined.transcriptLanguage!,
      digestText: digestAsText(joined.digestSections as Record<string, unknown>[]),
      transcript,
    },
  };
}

/**
 * `askSeries` {seriesId, maxMeetings, transcriptBudgetChars} →
 * {finishedCount, meetings}: the finished meetings of a series the caller can reach, newest first
 * by recordedAt, at most maxMeetings of them; every one with its digest, and as many full
 * transcripts as fit the budget (newest first; a transcript that does not fit is left out whole).
 */
export async function askSeries(
  db: Kysely<Database>,
  repos: Repositories,
  access: MeetingAccess,
  p: Principal,
  q: AskSeriesQuery,
): Promise<AskSeriesReply> {
  await access.reachSeries(p, q.seriesId);
  // The count, the newest rows, their transcripts and digests in one statement.
  const { count, newest: rows } = await repos.recordings.finishedOfSeriesForAsk(db, q.seriesId, q.maxMeetings);
  const read = rows.flatMap((r) => {
    const doc = transcriptOf(r);
    return doc ? [{ r, doc }] : [];
  });
  const fits = transcriptsThatFit(
    read.map(({ doc }) => transcriptAsText(doc).length),
    q.transcriptBudgetChars,
  );
  const meetings: AskMeetingDoc[] = read.map(({ r, doc }, i) => ({
    recordingId: r.id,
    recordedAt: r.recordedAt.toISOString(),
    title: r.title ?? r.digestTitle ?? null,
    language: r.transcriptLanguage!,
    digestText: digestAsText(r.digestSections as Record<string, unknown>[]),
    transcript: fits[i] ? doc : null,
  }));
  return { finishedCount: count, meetings };
}

/**
 * Answers the ask service's context requests, for the caller the ask service signed, and the
 * quotes' price inputs for an ask service of the last release (this release answers the quotes itself).
 */
export function serveAskContext(
  nc: NatsConnection,
  db: Kysely<Database>,
  repos: Repositories,
  access: MeetingAccess,
  logger: Logger,
): Subscription[] {
  const onError = (what: string) => (err: unknown) => logger.error({ err }, `${what} failed`);
  return [
    serve(
      nc,
      BUS.askMeeting,
      (q, { principal }) => askMeeting(db, repos, access, principal!, q.recordingId),
      onError(BUS.askMeeting.name),
    ),
    serve(
      nc,
      BUS.askSeries,
      (q, { principal }) => askSeries(db, repos, access, principal!, q),
      onError(BUS.askSeries.name),
    ),
    serve(
      nc,
      BUS.askMeetingPrice,
      (q, { principal }) => askMeetingPrice(db, repos, access, principal!, q.recordingId),
      onError(BUS.askMeetingPrice.name),
    ),
    serve(
      nc,
      BUS.askSeriesPrice,
      (q, { principal }) => askSeriesPrice(db, repos, access, principal!, q),
      onError(BUS.askSeriesPrice.name),
    ),
  ];
}
