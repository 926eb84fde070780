import { displayTitles, type TitleInput } from '../src/domain/titles';

const NOWRUZ_1403 = new Date('2024-03-20T10:00:00Z');

function meeting(overrides: Partial<TitleInput> = {}): TitleInput {
  return {
    title: 'Budget review',
    digestTitle: 'Digest title',
    digestLanguage: 'fa',
    recordedAt: NOWRUZ_1403,
    series: null,
    ...overrides,
  };
}

const series = (titleStyle: string | null, dateCalendar: string | null) => ({
  name: 'Weekly sync',
  titleStyle,
  dateCalendar,
});

describe('displayTitles in a SESSION series', () => {
  it('is the series name plus the Solar Hijri date for a Persian digest under AUTO, the own title moving to the subtitle', () => {
    expect(displayTitles(meeting({ series: series('SESSION', 'AUTO') }))).toEqual({
      title: 'Budget review',
      displayTitle: 'Weekly sync ۱۴۰۳/۰۱/۰۱',
      subtitle: 'Budget review',
    });
  });

  it('uses the Gregorian date for an English digest under AUTO', () => {
    expect(displayTitles(meeting({ digestLanguage: 'en', series: series('SESSION', 'AUTO') })).displayTitle).toBe(
      'Weekly sync 2024-03-20',
    );
  });

  it('follows JALALI and GREGORIAN whatever the digest language', () => {
    expect(displayTitles(meeting({ digestLanguage: 'en', series: series('SESSION', 'JALALI') })).displayTitle).toBe(
      'Weekly sync ۱۴۰۳/۰۱/۰۱',
    );
    expect(displayTitles(meeting({ digestLanguage: 'fa', series: series('SESSION', 'GREGORIAN') })).displayTitle).toBe(
      'Weekly sync 2024-03-20',
    );
  });

  it('shows the last day of a leap year, Esfand 30', () => {
    const t = displayTitles(
      meeting({ recordedAt: new Date('2025-03-20T23:00:00Z'), series: series('SESSION', 'JALALI') }),
    );
    expect(t.displayTitle).toBe('Weekly sync ۱۴۰۳/۱۲/۳۰');
  });

  it('puts the digest title in the subtitle when the meeting has no own title, and null when neither exists', () => {
    expect(displayTitles(meeting({ title: null, series: series('SESSION', 'GREGORIAN') }))).toEqual({
      title: 'Digest title',
      displayTitle: 'Weekly sync 2024-03-20',
      subtitle: 'Digest title',
    });
    expect(displayTitles(meeting({ title: null, digestTitle: null, series: series('SESSION', 'GREGORIAN') }))).toEqual({
      title: null,
      displayTitle: 'Weekly sync 2024-03-20',
      subtitle: null,
    });
  });

  it('uses the Gregorian date under AUTO while the meeting has no digest yet', () => {
    expect(displayTitles(meeting({ digestLanguage: null, series: series('SESSION', 'AUTO') })).displayTitle).toBe(
      'Weekly sync 2024-03-20',
    );
  });

  it('treats a meeting filed before title styles were kept (null) as SESSION, the contract default', () => {
    expect(displayTitles(meeting({ series: series(null, null), digestLanguage: 'fa' })).displayTitle).toBe(
      'Weekly sync ۱۴۰۳/۰۱/۰۱',
    );
  });
});

describe('displayTitles outside SESSION titles', () => {
  it('keeps the own title in a TOPIC series, with no subtitle', () => {
    expect(displayTitles(meeting({ series: series('TOPIC', 'JALALI') }))).toEqual({
      title: 'Budget review',
      displayTitle: 'Budget review',
      subtitle: null,
    });
  });

  it('shows the own title, else the digest title, else a placeholder, for a meeting in no series', () => {
    expect(displayTitles(meeting())).toEqual({ title: 'Budget review', displayTitle: 'Budget review', subtitle: null });
    expect(displayTitles(meeting({ title: null }))).toEqual({
      title: 'Digest title',
      displayTitle: 'Digest title',
      subtitle: null,
    });
    expect(displayTitles(meeting({ title: null, digestTitle: null }))).toEqual({
      title: null,
      displayTitle: 'Untitled meeting',
      subtitle: null,
    });
  });
});
