/**
 * The viewer's time zone, as their browser named it (client/app.js keeps it in the
 * `APP_TIME_ZONE_COOKIE` cookie; the gateway passes it on as `APP_TIME_ZONE_HEADER`). Anything that
 * is not an IANA zone the runtime knows is UTC, the zone the pages used before they knew one.
 * Answers the zone's canonical name (`Asia/Kolkata` → the runtime's `Asia/Calcutta`), so what the
 * pages format with comes from a finite set whatever a client sends.
 */
const ZONE_NAME = /^[A-Za-z][A-Za-z0-9_+-]*(?:\/[A-Za-z0-9_+-]+){0,2}$/;
const MAX_REMEMBERED = 1000;
const resolved = new Map<string, string>();

export function timeZoneOf(value: unknown): string {
  if (typeof value !== 'string' || value.length > 64 || !ZONE_NAME.test(value)) return 'UTC';
  const known = resolved.get(value);
  if (known !== undefined) return known;
  let zone = 'UTC';
  try {
    zone = new Intl.DateTimeFormat('en', { timeZone: value }).resolvedOptions().timeZone ?? 'UTC';
  } catch {
    // Not a zone this runtime knows.
  }
  if (resolved.size < MAX_REMEMBERED) resolved.set(value, zone);
  return zone;
}
