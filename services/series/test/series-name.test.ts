import { LIMITS } from '@mm/contract';
import { SeriesNameError, normalizeSeriesName, seriesNameKey } from '../src/domain/series-name';

const refusal = (raw: string): string => {
  try {
    normalizeSeriesName(raw);
  } catch (err) {
    if (err instanceof SeriesNameError) return err.message;
    throw err;
  }
  throw new Error(`${JSON.stringify(raw)} was accepted`);
};

describe('normalizeSeriesName', () => {
  it('collapses whitespace runs, line breaks and tabs included, and trims the ends', () => {
    expect(normalizeSeriesName('  Weekly \t\t sync\r\nteam  ')).toBe('Weekly sync team');
  });

  it('accepts 1 and 60 characters, counted after collapsing, as code points', () => {
    expect(normalizeSeriesName('a')).toBe('a');
    expect(normalizeSeriesName('b'.repeat(LIMITS.seriesNameMaxChars))).toHaveLength(60);
    expect(normalizeSeriesName(`${'c'.repeat(30)}\n\n\n${'d'.repeat(29)}`)).toHaveLength(60);
    expect(normalizeSeriesName('🎉'.repeat(60))).toBe('🎉'.repeat(60));
  });

  it('refuses an empty or blank name and one of 61 characters', () => {
    expect(refusal('')).toMatch(/empty/);
    expect(refusal(' \n\t ')).toMatch(/empty/);
    expect(refusal('e'.repeat(61))).toMatch(/61 characters long; at most 60/);
  });

  it('refuses control characters other than whitespace, C1 included, naming them', () => {
    expect(refusal('bell\u0007')).toMatch(/U\+0007/);
    expect(refusal('\u0000')).toMatch(/U\+0000/);
    expect(refusal('del\u007f')).toMatch(/U\+007F/);
    expect(refusal('next\u0085line')).toMatch(/U\+0085/);
  });

  it('keeps the Persian half-space and other format characters', () => {
    expect(normalizeSeriesName('جلسه\u200cهای تیم')).toBe('جلسه\u200cهای تیم');
  });
});

describe('seriesNameKey', () => {
  it('is equal for names that differ only in case or spacing', () => {
    expect(seriesNameKey('Board Meeting')).toBe(seriesNameKey('  board   MEETING'));
    expect(seriesNameKey('Board Meeting')).not.toBe(seriesNameKey('Board Meetings'));
  });
});
