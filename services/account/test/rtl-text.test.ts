import { isRtlText, rtlPieces, wrapWords } from '../src/domain/rtl-text';

describe('right-to-left lines for the PDF writer', () => {
  it('tells a Persian paragraph from an English one', () => {
    expect(isRtlText('تصمیم گرفتیم نسخه را جمعه منتشر کنیم')).toBe(true);
    expect(isRtlText('We ship on Friday')).toBe(false);
    expect(isRtlText('NATS را به‌روز کنیم')).toBe(true);
    expect(isRtlText('۱۴۰۴ 2026')).toBe(false);
  });

  it('wraps greedily by words, a word wider than the line alone on its line', () => {
    const widthOf = (s: string) => s.length;
    expect(wrapWords(['aa', 'bb', 'cc', 'dddddddddd', 'e'], 6, widthOf)).toEqual([
      ['aa', 'bb'],
      ['cc'],
      ['dddddddddd'],
      ['e'],
    ]);
    expect(wrapWords([], 6, widthOf)).toEqual([]);
  });

  it('draws Persian words one by one with the space on their visual left (after them, before the shaper reverses them)', () => {
    expect(rtlPieces(['سلام', 'دنیا'])).toEqual(['سلام ', 'دنیا ']);
  });

  it('keeps runs of Latin words together and in order, numbers after a Latin word in the run', () => {
    expect(rtlPieces(['گزارش', 'Release', 'Notes', 'v2', '2026', 'آماده'])).toEqual([
      'گزارش ',
      ' Release Notes v2 2026',
      'آماده ',
    ]);
  });

  it('reverses Persian numbers in advance so they read left to right, keeping their punctuation outside', () => {
    expect(rtlPieces(['ساعت', '۹:۳۰', '۱۴۰۴،'])).toEqual(['ساعت ', '۰۳:۹ ', '۴۰۴۱، ']);
  });

  it('puts the space before a piece the shaper lays out left to right (a bullet, a dash, Latin digits)', () => {
    expect(rtlPieces(['•', 'کار', '—', 'سارا', '2026'])).toEqual([' •', 'کار ', ' —', 'سارا ', ' 2026']);
  });
});
