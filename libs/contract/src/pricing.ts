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
