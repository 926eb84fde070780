import { readDay, solarDay } from '../src/domain/day-input';

describe('a day typed in a filter: Persian or Latin digits, Solar Hijri or Gregorian, kept Gregorian', () => {
  it('reads a Solar Hijri day (a year before 1700) into its Gregorian day, in either digits and separator', () => {
    expect(readDay('۱۴۰۳-۰۱-۰۱')).toBe('2024-03-20');
    expect(readDay('1403/1/1')).toBe('2024-03-20');
    expect(readDay('١٤٠٣-٠١-٠١')).toBe('2024-03-20');
    // 1403 is a leap year (30 Esfand); 1402 is not.
    expect(readDay('1403-12-30')).toBe('2025-03-20');
    expect(readDay('1402-12-30')).toBeNull();
  });

  it('keeps a Gregorian day, and refuses a day that does not exist or is not a day', () => {
    expect(readDay('2024-03-20')).toBe('2024-03-20');
    expect(readDay('۲۰۳۰-۱۲-۳۱')).toBe('2030-12-31');
    for (const bad of ['2023-02-29', '2024-13-01', '2024-00-10', '1403-07-31', '20240320', 'yesterday', ''])
      expect([bad, readDay(bad)]).toEqual([bad, null]);
  });

  it('shows a Gregorian day back in the Solar Hijri calendar', () => {
    expect(solarDay('2024-03-20')).toBe('1403-01-01');
    expect(solarDay('2025-03-20')).toBe('1403-12-30');
  });
});
