/**
 * A day typed in a filter: yyyy-mm-dd (or yyyy/mm/dd) in Latin, Persian or Arabic-Indic digits, in the Gregorian
 * calendar or (a year before 1700) the Solar Hijri one, which is what a Persian reader expects.
 * Read into the Gregorian yyyy-mm-dd the services filter by; a day that does not exist is null.
 */
import { latinDigits } from '@mm/text';

const SHAPE = /^(\d{4})[-/](\d{1,2})[-/](\d{1,2})$/;
const DAY_MS = 86_400_000;
/** Years before this are Solar Hijri (the Gregorian year 1700 is the Solar Hijri 1078/1079). */
const SOLAR_YEARS_BELOW = 1700;
const SOLAR = new Intl.DateTimeFormat('en-u-ca-persian-nu-latn', {
  year: 'numeric',
  month: 'numeric',
  day: 'numeric',
  timeZone: 'UTC',
});

const pad = (n: number, width = 2) => String(n).padStart(width, '0');
const isoDay = (t: number) => new Date(t).toISOString().slice(0, 10);

/** The Solar Hijri year, month and day of a moment (UTC). */
function solarOf(t: number): [number, number, number] {
  const parts = Object.fromEntries(SOLAR.formatToParts(new Date(t)).map((p) => [p.type, p.value]));
  return [Number(parts.year), Number(parts.month), Number(parts.day)];
}

/** The Gregorian day of a Solar Hijri one: estimated from Nowruz, then checked against the calendar. */
function fromSolar(y: number, m: number, d: number): string | null {
  if (m < 1 || m > 12 || d < 1 || d > 31) return null;
  const offset = (m <= 6 ? (m - 1) * 31 : 186 + (m - 7) * 30) + d - 1;
  const estimate = Date.UTC(y + 621, 2, 21) + offset * DAY_MS;
  for (const shift of [0, -1, 1, -2, 2]) {
    const t = estimate + shift * DAY_MS;
    const [sy, sm, sd] = solarOf(t);
    if (sy === y && sm === m && sd === d) return isoDay(t);
  }
  return null;
}

/** The Gregorian yyyy-mm-dd of a typed day, or null when it is not one. */
export function readDay(typed: string): string | null {
  const match = SHAPE.exec(latinDigits(typed.trim()));
  if (!match) return null;
  const [y, m, d] = [Number(match[1]), Number(match[2]), Number(match[3])];
  if (y < SOLAR_YEARS_BELOW) return fromSolar(y, m, d);
  const t = Date.UTC(y, m - 1, d);
  return isoDay(t) === `${pad(y, 4)}-${pad(m)}-${pad(d)}` ? isoDay(t) : null;
}

/** A Gregorian yyyy-mm-dd as the Solar Hijri yyyy-mm-dd (Latin digits). */
export function solarDay(gregorian: string): string {
  const [y, m, d] = solarOf(Date.parse(`${gregorian}T00:00:00Z`));
  return `${y}-${pad(m)}-${pad(d)}`;
}

const LONG_SOLAR = new Intl.DateTimeFormat('fa-IR-u-ca-persian-nu-arabext', { dateStyle: 'long', timeZone: 'UTC' });

/** A Gregorian yyyy-mm-dd as a Persian reader says it: "۱ فروردین ۱۴۰۳". */
export function solarDayInWords(gregorian: string): string {
  return LONG_SOLAR.format(new Date(`${gregorian}T00:00:00Z`));
}
