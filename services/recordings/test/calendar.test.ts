import { formatSessionDate, toJalali } from '../src/domain/calendar';

/**
 * Known Gregorian → Solar Hijri pairs, each derived by hand rather than from the code under test.
 * Farvardin 1 (Nowruz) is the day whose Tehran noon (08:30 UTC) follows the March equinox, so a
 * year's length follows from two equinox times; the first six months have 31 days, the next five
 * 30, Esfand 29 (30 in a leap year).
 */
const KNOWN: Array<[gregorian: string, jalali: [number, number, number], why: string]> = [
  ['2024-03-20', [1403, 1, 1], 'equinox 2024-03-20 03:06 UTC, before Tehran noon: Nowruz 1403'],
  ['2024-03-19', [1402, 12, 29], 'day before Nowruz 1403; 1402 (Nowruz 2023-03-21) has 365 days'],
  ['2023-03-21', [1402, 1, 1], 'equinox 2023-03-20 21:24 UTC, after Tehran noon of the 20th: Nowruz 1402'],
  ['2025-03-21', [1404, 1, 1], 'equinox 2025-03-20 09:01 UTC, after Tehran noon: Nowruz 1404'],
  ['2025-03-20', [1403, 12, 30], '1403 runs 2024-03-20..2025-03-20, 366 days: a leap year ending on Esfand 30'],
  ['2021-03-21', [1400, 1, 1], 'equinox 2021-03-20 09:37 UTC, after Tehran noon: Nowruz 1400'],
  ['2021-03-20', [1399, 12, 30], '1399 began 2020-03-20 (equinox 03:49 UTC), 366 days: leap'],
  ['2020-03-20', [1399, 1, 1], 'equinox 2020-03-20 03:49 UTC, before Tehran noon: Nowruz 1399'],
  ['2020-03-19', [1398, 12, 29], 'day before Nowruz 1399; 1398 is a common year'],
  ['2017-03-20', [1395, 12, 30], '1395 began 2016-03-20, Nowruz 1396 was 2017-03-21: leap'],
  ['2024-02-29', [1402, 12, 10], 'the Gregorian leap day: 19 days before 1402/12/29'],
  ['2025-02-19', [1403, 12, 1], '29 days before 1403/12/30'],
  ['2024-09-21', [1403, 6, 31], 'day 186 of 1403: last day of the 31-day months'],
  ['2024-09-22', [1403, 7, 1], 'day 187 of 1403: Mehr 1'],
  ['2023-12-22', [1402, 10, 1], 'Yalda night ends: Dey 1 (day 277 of 1402)'],
  ['2000-01-01', [1378, 10, 11], 'day 287 of 1378 (Nowruz 1999-03-21): 186 + 3 * 30 + 11'],
  ['1979-02-11', [1357, 11, 22], '22 Bahman 1357, the revolution day'],
];

describe('toJalali (Gregorian to Solar Hijri)', () => {
  it.each(KNOWN)('converts %s to %j (%s)', (g, [jy, jm, jd]) => {
    const [y, m, d] = g.split('-').map(Number);
    expect(toJalali(y, m, d)).toEqual({ jy, jm, jd });
  });

  it("agrees with ICU's Persian calendar on every day of 2000 to 2099", () => {
    // An independent implementation (ICU, bundled with Node) as the oracle for the whole century.
    const icu = new Intl.DateTimeFormat('en-u-ca-persian-nu-latn', {
      timeZone: 'UTC',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
    });
    expect(icu.resolvedOptions().calendar).toBe('persian');
    const mismatches: string[] = [];
    for (let t = Date.UTC(2000, 0, 1); t < Date.UTC(2100, 0, 1); t += 86_400_000) {
      const at = new Date(t);
      const parts = Object.fromEntries(icu.formatToParts(at).map((p) => [p.type, p.value]));
      const j = toJalali(at.getUTCFullYear(), at.getUTCMonth() + 1, at.getUTCDate());
      if (j.jy !== Number(parts.year) || j.jm !== Number(parts.month) || j.jd !== Number(parts.day))
        mismatches.push(at.toISOString().slice(0, 10));
    }
    expect(mismatches).toEqual([]);
  });
});

describe('formatSessionDate', () => {
  it('writes Solar Hijri dates with Persian digits, zero-padded: ۱۴۰۳/۰۱/۰۱', () => {
    expect(formatSessionDate(new Date('2024-03-20T10:00:00Z'), 'JALALI')).toBe('۱۴۰۳/۰۱/۰۱');
    expect(formatSessionDate(new Date('2025-03-20T10:00:00Z'), 'JALALI')).toBe('۱۴۰۳/۱۲/۳۰');
    expect(formatSessionDate(new Date('2000-01-01T00:00:00Z'), 'JALALI')).toBe('۱۳۷۸/۱۰/۱۱');
  });

  it('writes Gregorian dates as YYYY-MM-DD', () => {
    expect(formatSessionDate(new Date('2024-03-20T10:00:00Z'), 'GREGORIAN')).toBe('2024-03-20');
    expect(formatSessionDate(new Date('2024-02-29T23:59:59Z'), 'GREGORIAN')).toBe('2024-02-29');
  });

  it('takes the day in UTC, like every timestamp of the API', () => {
    // 22:00 UTC on 19 March is already 20 March (Nowruz) in Tehran; the title shows the UTC day.
    expect(formatSessionDate(new Date('2024-03-19T22:00:00Z'), 'JALALI')).toBe('۱۴۰۲/۱۲/۲۹');
    expect(formatSessionDate(new Date('2024-03-20T01:30:00+03:30'), 'GREGORIAN')).toBe('2024-03-19');
  });
});
