import { speechOf } from '../src/i18n/messages';

describe("the app's times", () => {
  it('name their zone (UTC), on a 24-hour clock, in each language', () => {
    const at = '2026-11-29T15:04:00Z';
    expect(speechOf('en').date(at)).toBe('29 Nov 2026, 15:04 UTC');
    // Persian: the Solar Hijri date in Persian digits, and the zone.
    expect(speechOf('fa').date(at)).toBe('۸ آذر ۱۴۰۵، ۱۵:۰۴ (UTC)');
  });
});
