import type { NatsConnection } from 'nats';
import { request, RemoteError } from '@mm/bus';
import {
  ASK_PRICING,
  ASK_REFUSALS,
  askCharsRead,
  askPrice,
  BUS,
  transcriptAsText,
  type AskMeetingDoc,
  type RequestEntry,
} from '@mm/contract';
import { ApiError, type Principal } from '@mm/http';
import type { AskInput } from '../domain/extractive';

/** What an Ask reads and what it costs. */
export interface AskContext {
  turns: AskInput['turns'];
  minutes: number;
  meetingCount: number;
  /** The text an engine that reads (a language model) is given: digests and transcripts. */
  documents: {
    recordingId: string;
    title: string | null;
    recordedAt: string;
    digestText: string;
    transcriptText: string | null;
  }[];
}

/** Asks the recordings service for the caller, passing NOT_FOUND on as the same 404 and anything else as a 500. */
async function ask<P, R>(
  nc: NatsConnection,
  entry: RequestEntry<P, R>,
  caller: Principal,
  payload: P,
  notFound: string,
): Promise<R> {
  try {
    return await request(nc, entry, payload, { timeoutMs: 10_000, principal: caller });
  } catch (err) {
    if (err instanceof RemoteError && err.code === 'NOT_FOUND') throw new ApiError('NOT_FOUND', notFound);
    throw err;
  }
}

const turnsOf = (m: AskMeetingDoc, withMeeting: boolean): AskContext['turns'] =>
  (m.transcript?.segments ?? [])
    .filter((s) => s.text.trim().length > 0)
    .map((s) =>
      withMeeting
        ? { recordingId: m.recordingId, meetingTitle: m.title, startMs: s.startMs, speaker: s.speaker, text: s.text }
        : { startMs: s.startMs, speaker: s.speaker, text: s.text },
    );

const notReady = (status: string) => new ApiError('ASK_NOT_READY', ASK_REFUSALS.notReady(status));
const tooFew = (finishedCount: number) => new ApiError('SERIES_ASK_TOO_FEW', ASK_REFUSALS.tooFew(finishedCount));

/** Loads what Asks read from the recordings service (the owner of transcripts and digests). */
export class ContextLoader {
  constructor(
    private readonly nc: NatsConnection,
    private readonly charsPerMinute: number,
  ) {}

  /** A meeting the caller can reach: 404 otherwise, 409 ASK_NOT_READY before READY. */
  async meeting(p: Principal, recordingId: string): Promise<AskContext> {
    const r = await ask(this.nc, BUS.askMeeting, p, { recordingId }, 'No meeting the token can reach has that id.');
    if (r.status !== 'READY' || !r.meeting?.transcript) throw notReady(r.status);
    const m = r.meeting;
    const transcriptText = transcriptAsText(m.transcript!);
    return {
      turns: turnsOf(m, false),
      minutes: askPrice(askCharsRead('meeting', [m]), this.charsPerMinute),
      meetingCount: 1,
      documents: [
        {
          recordingId: m.recordingId,
          title: m.title,
          recordedAt: m.recordedAt,
          digestText: m.digestText,
          transcriptText,
        },
      ],
    };
  }

  /**
   * A meeting's quote, for a gateway of the last release (this release's gateway sends the quotes
   * to the recordings service, which answers them without this hop: decisions.md, session 33).
   * Remove with the askMeetingPrice and askSeriesPrice subjects in the next release.
   *
   * What `meeting` would price, with the same 404 and 409 ASK_NOT_READY, from
   * the recordings service's count of the characters read (the documents are not sent).
   */
  async quoteMeeting(p: Principal, recordingId: string): Promise<{ minutes: number }> {
    const r = await ask(
      this.nc,
      BUS.askMeetingPrice,
      p,
      { recordingId },
      'No meeting the token can reach has that id.',
    );
    if (r.status !== 'READY' || r.charsRead === null) throw notReady(r.status);
    return { minutes: askPrice(r.charsRead, this.charsPerMinute) };
  }

  /** A series' quote: what `series` would price and read, with the same 404 and 409 SERIES_ASK_TOO_FEW. */
  async quoteSeries(p: Principal, seriesId: string): Promise<{ minutes: number; meetingCount: number }> {
    const r = await ask(
      this.nc,
      BUS.askSeriesPrice,
      p,
      {
        seriesId,
        maxMeetings: ASK_PRICING.seriesMaxMeetings,
        transcriptBudgetChars: ASK_PRICING.seriesTranscriptBudgetChars,
      },
      'No series the token can reach has that id.',
    );
    if (r.finishedCount < ASK_PRICING.seriesMinMeetings) throw tooFew(r.finishedCount);
    return { minutes: askPrice(r.charsRead, this.charsPerMinute), meetingCount: r.meetingCount };
  }

  /**
   * 404 unless the caller can still reach the meeting or series (whatever its state): a replayed
   * answer is shown only to whom could ask it now; a deleted meeting's is not.
   */
  async reach(p: Principal, target: { kind: 'recording' | 'series'; id: string }): Promise<void> {
    if (target.kind === 'recording')
      await ask(this.nc, BUS.askMeeting, p, { recordingId: target.id }, 'No meeting the token can reach has that id.');
    else
      await ask(
        this.nc,
        BUS.askSeries,
        p,
        { seriesId: target.id, maxMeetings: 1, transcriptBudgetChars: 0 },
        'No series the token can reach has that id.',
      );
  }

  /** A series the caller can reach (404 otherwise, and while series are off) with 2+ finished meetings. */
  async series(p: Principal, seriesId: string): Promise<AskContext> {
    const r = await ask(
      this.nc,
      BUS.askSeries,
      p,
      {
        seriesId,
        maxMeetings: ASK_PRICING.seriesMaxMeetings,
        transcriptBudgetChars: ASK_PRICING.seriesTranscriptBudgetChars,
      },
      'No series the token can reach has that id.',
    );
    if (r.finishedCount < ASK_PRICING.seriesMinMeetings) throw tooFew(r.finishedCount);
    // Reading order: oldest meeting first.
    const meetings = [...r.meetings].reverse();
    const documents = meetings.map((m) => ({
      recordingId: m.recordingId,
      title: m.title,
      recordedAt: m.recordedAt,
      digestText: m.digestText,
      transcriptText: m.transcript ? transcriptAsText(m.transcript) : null,
    }));
    return {
      turns: meetings.flatMap((m) => turnsOf(m, true)),
      minutes: askPrice(askCharsRead('series', meetings), this.charsPerMinute),
      meetingCount: meetings.length,
      documents,
    };
  }
}
