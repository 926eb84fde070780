/**
 * What an Ask costs: one minute per `charsPerMinute` characters of what it reads (the meeting's
 * transcript as read, speaker names included; for a series, every digest and the transcripts that
 * fit), at least one minute. The question does not change the price. ASK_CHARS_PER_MINUTE sets
 * the rate (default below).
 */
export const DEFAULT_CHARS_PER_MINUTE = 4000;

/** A series Ask reads at most this many of the newest finished meetings. */
export const SERIES_MAX_MEETINGS = 50;
/** ... and, after every digest, as many full transcripts as fit in this many characters, newest first. */
export const SERIES_TRANSCRIPT_BUDGET_CHARS = 60_000;
/** A series Ask needs this many finished meetings. */
export const SERIES_MIN_MEETINGS = 2;

export function priceOf(charsRead: number, charsPerMinute = DEFAULT_CHARS_PER_MINUTE): number {
  return Math.max(1, Math.ceil(charsRead / charsPerMinute));
}
