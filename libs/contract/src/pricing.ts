import { LIMITS } from './catalog';

/**
 * A meeting's price in whole minutes (the contract's Submit result: audio length, plus the
 * keyterms surcharge when keyterms apply, plus the attachment's minutes). Audio minutes round up
 * (a 61-second meeting costs 2), with at least 1; the surcharge is 20% of the audio minutes,
 * rounded up. Shared so that the app shows, before sending, the price the service will hold
 * (services/recordings/src/domain/pricing.ts uses it).
 */
export function meetingPrice(i: { durationMs: number; usesKeyterms: boolean; attachmentMinutes: number }): {
  minutes: number;
  audioMinutes: number;
  surcharge: number;
} {
  const audioMinutes = Math.max(1, Math.ceil(i.durationMs / 60_000));
  const surcharge = i.usesKeyterms ? Math.ceil((audioMinutes * LIMITS.keytermSurchargePercent) / 100) : 0;
  return { minutes: audioMinutes + surcharge + i.attachmentMinutes, audioMinutes, surcharge };
}

/** An attachment costs 1 minute per started 2 MB. */
export function attachmentPrice(bytes: number): number {
  return Math.max(1, Math.ceil(bytes / (2 * 1024 * 1024)));
}

/**
 * What an Ask costs: one minute per `charsPerMinute` characters of what it reads (the meeting's
 * transcript as read, speaker names included; for a series, every digest and the transcripts that
 * fit), at least one minute. The question does not change the price. Shared because two services
 * price it: recordings answers the quotes, ask charges the Asks, and the charge must equal the
 * quote (ASK_CHARS_PER_MINUTE, read by readAskCharsPerMinute, sets the rate of both).
 */
export const ASK_PRICING = {
  /** The rate when ASK_CHARS_PER_MINUTE is not set. */
  defaultCharsPerMinute: 4000,
  /** A series Ask reads at most this many of the newest finished meetings. */
  seriesMaxMeetings: 50,
  /** ... and, after every digest, as many full transcripts as fit in this many characters, newest first. */
  seriesTranscriptBudgetChars: 60_000,
  /** A series Ask needs this many finished meetings. */
  seriesMinMeetings: 2,
} as const;

export function askPrice(charsRead: number, charsPerMinute: number = ASK_PRICING.defaultCharsPerMinute): number {
  return Math.max(1, Math.ceil(charsRead / charsPerMinute));
}

/** The messages of an Ask's and its quote's refusals, the same from either service. */
export const ASK_REFUSALS = {
  notReady: (status: string) => `The meeting has no digest yet (status ${status}); ask again once it is READY.`,
  tooFew: (finishedCount: number) =>
    `A series Ask needs at least ${ASK_PRICING.seriesMinMeetings} finished meetings; this one has ${finishedCount}.`,
} as const;
