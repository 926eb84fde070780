import { caseKey, charCount, codePointLabel, collapseWhitespace, firstControlChar } from '../src/whitespace';

describe('whitespace helpers', () => {
  it('collapses every whitespace run, line breaks, tabs and Unicode spaces included, and trims', () => {
    expect(collapseWhitespace(' a\t\tb\r\n c\u00a0\u2003d ')).toBe('a b c d');
  });

  it('keeps the half-space (ZWNJ), which is not whitespace', () => {
    expect(collapseWhitespace('می\u200cخواهم')).toBe('می\u200cخواهم');
  });

  it('finds control characters other than whitespace, C1 included', () => {
    expect(firstControlChar('tab\tand\nline\r')).toBeNull();
    expect(firstControlChar('a\u0000')).toBe('\u0000');
    expect(firstControlChar('a\u007f')).toBe('\u007f');
    expect(firstControlChar('a\u0085')).toBe('\u0085');
    expect(firstControlChar('half\u200cspace')).toBeNull();
  });

  it('counts code points and labels them', () => {
    expect(charCount('😀a')).toBe(2);
    expect(codePointLabel('\u0007')).toBe('U+0007');
  });

  it('folds case beyond toLowerCase', () => {
    expect(caseKey('STRASSE')).toBe(caseKey('straße'));
    expect(caseKey('É')).toBe(caseKey('e\u0301'));
  });
});
