import { firstPartHolding, normalizeForSearch, searchTokens, searchWords } from '../src/search';

describe('search normalization', () => {
  it('ignores capitals and Latin diacritics', () => {
    expect(normalizeForSearch('Café RÉSUMÉ')).toBe('cafe resume');
  });
  it('ignores the half-space, so می‌روم matches میروم', () => {
    expect(normalizeForSearch('می\u200cروم')).toBe(normalizeForSearch('میروم'));
  });
  it('matches Arabic letter forms to Persian ones', () => {
    expect(normalizeForSearch('كتاب علي')).toBe(normalizeForSearch('کتاب علی'));
  });
  it('matches the ezafe heh to heh, precomposed (ۀ) or with its hamza mark (هٔ), and the other heh forms', () => {
    for (const word of ['خانۀ', 'خانهٔ', 'خانە', 'خانہ', 'خانھ', 'خانۂ'])
      expect([word, normalizeForSearch(word)]).toEqual([word, normalizeForSearch('خانه')]);
  });
  it('matches Persian and Arabic-Indic digits to Latin ones', () => {
    expect(normalizeForSearch('۱۴۰۳ ٢٠٢٤')).toBe('1403 2024');
  });
  it('drops Arabic diacritics and the madda', () => {
    expect(normalizeForSearch('مُحَمَّد آب')).toBe(normalizeForSearch('محمد اب'));
  });
  it('splits a query into normalized words, and finds none in spaces or punctuation', () => {
    expect(searchWords('  Release, NOTES!  ')).toEqual(['release', 'notes']);
    expect(searchWords('   ')).toEqual([]);
    expect(searchWords('—')).toEqual([]);
  });

  it('stores each token once, on the line of the first part holding it, so every query word still matches inside it', () => {
    const parts = ['Release notes.', 'Release, then   release notes\tagain', 'نیم\u200cسال\r\nrelease,'].map(
      normalizeForSearch,
    );
    const stored = searchTokens(parts);
    expect(stored).toBe('release notes.\nrelease, then notes again\nنیمسال');
    for (const w of searchWords('leas notes agai نیمسا')) expect(stored.includes(w)).toBe(parts.join('\n').includes(w));
    expect(firstPartHolding(stored, ['then'])).toBe(1);
    expect(firstPartHolding(stored, ['zzz', 'سال'])).toBe(2);
    expect(firstPartHolding(stored, ['zzz'])).toBe(-1);
    expect(searchTokens([' \n ', ''])).toBe('\n');
  });
});
