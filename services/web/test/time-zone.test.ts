import { timeZoneOf } from '../src/domain/time-zone';
import { speechOf } from '../src/i18n/messages';

describe("the viewer's time zone", () => {
  it.each([
    ['Asia/Tehran', 'Asia/Tehran'],
    ['America/Argentina/Buenos_Aires', 'America/Buenos_Aires'],
    ['Asia/Kolkata', 'Asia/Calcutta'],
    ['Etc/GMT+3', 'Etc/GMT+3'],
    ['utc', 'UTC'],
    ['Europe/Kyiv', 'Europe/Kiev'],
  ])('reads %s as the runtime canonical %s', (sent, zone) => {
    expect(timeZoneOf(sent)).toBe(zone);
  });

  it.each([
    ['nothing', undefined],
    ['an empty value', ''],
    ['an unknown zone', 'Mars/Olympus_Mons'],
    ['a path', '../../etc/passwd'],
    ['a header split', 'Asia/Tehran\r\nX-Evil: 1'],
    ['too long', `Asia/${'x'.repeat(80)}`],
    ['two values', ['Asia/Tehran', 'UTC']],
  ])('reads %s as UTC', (_what, sent) => {
    expect(timeZoneOf(sent)).toBe('UTC');
  });

  it('writes the times in it and names it, in each language', () => {
    const at = '2026-11-29T15:04:00Z';
    expect(speechOf('en', 'Asia/Tehran').date(at)).toBe('29 Nov 2026, 18:34 GMT+3:30');
    expect(speechOf('fa', 'Asia/Tehran').date(at)).toContain('۱۸:۳۴');
    expect(speechOf('en', 'America/New_York').date('2026-07-01T12:00:00Z')).toBe('1 Jul 2026, 08:00 GMT-4');
    // The same speech is reused for a locale and zone.
    expect(speechOf('en', 'Asia/Tehran')).toBe(speechOf('en', 'Asia/Tehran'));
    expect(speechOf('en').date(at)).toBe('29 Nov 2026, 15:04 UTC');
  });
});
