/**
 * An ISO 8601 date-time with an offset (seconds and fractions optional), as `recordedAt` is sent
 * in a multipart part. It must name a real instant: `Date.parse` would move 2026-02-30 to March 2
 * and read 24:00 as the next day, where the contract asks for 400 VALIDATION.
 */
const PATTERN = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(?:\.\d{1,9})?)?(?:Z|[+-](\d{2}):(\d{2}))$/i;

/** The instant, or null when the value is not such a date-time or names no real day or time. */
export function parseOffsetDateTime(value: string): Date | null {
  const m = PATTERN.exec(value);
  if (!m) return null;
  const [year, month, day, hour, minute, second = '0', offsetHours = '0', offsetMinutes = '0'] = m.slice(1);
  const daysInMonth = new Date(Date.UTC(Number(year), Number(month), 0)).getUTCDate();
  const real =
    Number(month) >= 1 &&
    Number(month) <= 12 &&
    Number(day) >= 1 &&
    Number(day) <= daysInMonth &&
    Number(hour) <= 23 &&
    Number(minute) <= 59 &&
    Number(second) <= 59 &&
    Number(offsetHours) <= 23 &&
    Number(offsetMinutes) <= 59;
  const t = Date.parse(value);
  return real && !Number.isNaN(t) ? new Date(t) : null;
}
