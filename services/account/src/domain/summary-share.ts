/**
 * The limit on summaries a person emails from the app (to themself or a series' email list), per
 * account, so the app cannot be used to send mail in bulk. No I/O.
 */
export const SUMMARY_SHARE_LIMITS = {
  /** Sends (one click of "email the summary", whatever its recipients) in any rolling hour. */
  sendsPerHour: 10,
  /** Addresses written to in any rolling 24 hours (a series list holds at most 50). */
  recipientsPerDay: 200,
} as const;

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;

export type ShareAdmission = { ok: true } | { ok: false; retryAfterSeconds: number };

/**
 * Whether one more send to `recipients` addresses fits, given the account's sends of the last day
 * (any order); when it does not, how many whole seconds until it would.
 */
export function admitShare(
  recent: readonly { sentAt: Date; recipients: number }[],
  recipients: number,
  now: Date,
  limits: { sendsPerHour: number; recipientsPerDay: number } = SUMMARY_SHARE_LIMITS,
): ShareAdmission {
  const t = now.getTime();
  const day = recent.filter((r) => t - r.sentAt.getTime() < DAY_MS).sort((a, b) => +a.sentAt - +b.sentAt);
  const hour = day.filter((r) => t - r.sentAt.getTime() < HOUR_MS);
  let waitMs = 0;
  if (hour.length >= limits.sendsPerHour) {
    // The send that has to leave the hour for one more to fit.
    const leaving = hour[hour.length - limits.sendsPerHour];
    waitMs = Math.max(waitMs, leaving.sentAt.getTime() + HOUR_MS - t);
  }
  let used = day.reduce((n, r) => n + r.recipients, 0);
  if (used + recipients > limits.recipientsPerDay) {
    if (recipients > limits.recipientsPerDay) return { ok: false, retryAfterSeconds: DAY_MS / 1000 };
    for (const r of day) {
      used -= r.recipients;
      if (used + recipients <= limits.recipientsPerDay) {
        waitMs = Math.max(waitMs, r.sentAt.getTime() + DAY_MS - t);
        break;
      }
    }
  }
  return waitMs > 0 ? { ok: false, retryAfterSeconds: Math.max(1, Math.ceil(waitMs / 1000)) } : { ok: true };
}
