import {
  ASK_PRICING,
  ASK_REFUSALS,
  askPrice,
  type AskMeetingPriceReply,
  type AskSeriesPriceReply,
  type AskSeriesQuery,
} from '@mm/contract';
import type { Kysely } from 'kysely';
import { ApiError, type Principal } from '@mm/http';
import type { Database } from '../db/schema';
import { transcriptsThatFit } from '../domain/ask-budget';
import { seriesNotFound, type MeetingAccess } from '../services/access';
import type { Repositories, UseCaseContext } from './context';

/**
 * The Ask quotes (quoteRecordingAsk, quoteSeriesAsk), answered here, beside the documents they
 * count, instead of by the ask service asking this one over the bus: a quote crosses one service
 * and no bus hop (docs/decisions.md, session 33). The price rule is the contract library's
 * (askPrice), which the ask service charges by, from the same ASK_CHARS_PER_MINUTE.
 */
export class AskQuotes {
  constructor(
    private readonly ctx: UseCaseContext,
    private readonly access: MeetingAccess,
    private readonly charsPerMinute: number,
  ) {}

  /** What one question to the meeting costs; 409 ASK_NOT_READY before it is READY with its digest. */
  async meeting(p: Principal, recordingId: string): Promise<{ minutes: number }> {
    if (!p.features.ask) throw new ApiError('ASK_DISABLED', 'Ask is switched off for now.');
    const r = await askMeetingPrice(this.ctx.db, this.ctx.repos, this.access, p, recordingId);
    if (r.status !== 'READY' || r.charsRead === null)
      throw new ApiError('ASK_NOT_READY', ASK_REFUSALS.notReady(r.status));
    return { minutes: askPrice(r.charsRead, this.charsPerMinute) };
  }

  /**
   * What one question to the series costs and how many meetings it reads; 409 SERIES_ASK_TOO_FEW
   * under the minimum. While Ask is off the series quote answers 404, not ASK_DISABLED (contract).
   */
  async series(p: Principal, seriesId: string): Promise<{ minutes: number; meetingCount: number }> {
    if (!p.features.ask) throw seriesNotFound();
    const r = await askSeriesPrice(this.ctx.db, this.ctx.repos, this.access, p, {
      seriesId,
      maxMeetings: ASK_PRICING.seriesMaxMeetings,
      transcriptBudgetChars: ASK_PRICING.seriesTranscriptBudgetChars,
    });
    if (r.finishedCount < ASK_PRICING.seriesMinMeetings)
      throw new ApiError('SERIES_ASK_TOO_FEW', ASK_REFUSALS.tooFew(r.finishedCount));
    return { minutes: askPrice(r.charsRead, this.charsPerMinute), meetingCount: r.meetingCount };
  }
}

/**
 * The counts of some meetings' documents (null: absent), those not counted yet (written before the
 * counts were kept) counted from the documents once and stored: the quote prices them as the Ask.
 */
async function countsOf(
  rows: readonly { id: string; chars: number | null }[],
  count: (ids: string[]) => Promise<Map<string, number>>,
): Promise<(number | null)[]> {
  const missing = rows.filter((r) => r.chars === null).map((r) => r.id);
  const found = missing.length === 0 ? new Map<string, number>() : await count(missing);
  return rows.map((r) => r.chars ?? found.get(r.id) ?? null);
}

/**
 * What askMeeting would read, counted (the meeting quote), with the same reach and readiness: the transcript's count as read, stored by every write
 * of the transcript and its speakers' names, so the quote reads no document.
 */
export async function askMeetingPrice(
  db: Kysely<Database>,
  repos: Repositories,
  access: MeetingAccess,
  p: Principal,
  recordingId: string,
): Promise<AskMeetingPriceReply> {
  const { r } = await access.readable(p, await repos.recordings.getForAskPrice(db, recordingId));
  if (r.status !== 'READY' || r.transcriptOf === null || r.digestOf === null)
    return { status: r.status, charsRead: null };
  const [chars] = await countsOf([{ id: r.id, chars: r.readChars }], (ids) => repos.transcripts.counts(db, ids));
  return { status: r.status, charsRead: chars };
}

/**
 * What askSeries would read with the same query, counted (the series quote):
 * the same meetings in the same order, each digest's count and the counts of the transcripts the
 * budget carries (transcriptsThatFit), read from the stored counts instead of the documents.
 */
export async function askSeriesPrice(
  db: Kysely<Database>,
  repos: Repositories,
  access: MeetingAccess,
  p: Principal,
  q: AskSeriesQuery,
): Promise<AskSeriesPriceReply> {
  await access.reachSeries(p, q.seriesId);
  const { count, newest } = await repos.recordings.finishedOfSeriesForPrice(db, q.seriesId, q.maxMeetings);
  // As askSeries: a meeting without its transcript or its digest is not read.
  const both = newest.filter((m) => m.transcriptOf !== null && m.digestOf !== null);
  const [readChars, textChars] = await Promise.all([
    countsOf(
      both.map((m) => ({ id: m.id, chars: m.readChars })),
      (ids) => repos.transcripts.counts(db, ids),
    ),
    countsOf(
      both.map((m) => ({ id: m.id, chars: m.textChars })),
      (ids) => repos.digests.counts(db, ids),
    ),
  ]);
  const read = both
    .map((_, i) => ({ transcript: readChars[i], digest: textChars[i] }))
    .filter((m): m is { transcript: number; digest: number } => m.transcript !== null && m.digest !== null);
  const fits = transcriptsThatFit(
    read.map((m) => m.transcript),
    q.transcriptBudgetChars,
  );
  const charsRead = read.reduce((n, m, i) => n + m.digest + (fits[i] ? m.transcript : 0), 0);
  return { finishedCount: count, meetingCount: read.length, charsRead };
}
