import { KeytermRuleError, keytermKey, normalizeKeyterms } from '../src/keyterms';

const problem = (terms: unknown[]): KeytermRuleError => {
  try {
    normalizeKeyterms(terms);
  } catch (err) {
    if (err instanceof KeytermRuleError) return err;
    throw err;
  }
  throw new Error('no rule was broken');
};

describe('normalizeKeyterms', () => {
  it('trims each term and collapses whitespace runs to one space, keeping the order', () => {
    expect(normalizeKeyterms(['  Kubernetes ', 'New   York', 'tab\tand\nline', 'nats'])).toEqual([
      'Kubernetes',
      'New York',
      'tab and line',
      'nats',
    ]);
  });

  it('accepts an empty list, 100 terms, 49 characters, 5 words and the Persian half-space', () => {
    expect(normalizeKeyterms([])).toEqual([]);
    expect(normalizeKeyterms(Array.from({ length: 100 }, (_, i) => `t${i}`))).toHaveLength(100);
    expect(normalizeKeyterms(['x'.repeat(49), 'a b c d e', 'زمان\u200cبندی'])).toEqual([
      'x'.repeat(49),
      'a b c d e',
      'زمان\u200cبندی',
    ]);
  });

  it('counts characters as code points, so an emoji is one character', () => {
    expect(normalizeKeyterms(['😀'.repeat(49)])).toHaveLength(1);
    expect(problem(['😀'.repeat(50)]).message).toMatch(/50 characters/);
  });

  it('measures length and words after collapsing', () => {
    expect(normalizeKeyterms([`  ${'x'.repeat(49)}  `])).toEqual(['x'.repeat(49)]);
    expect(normalizeKeyterms(['a    b    c    d    e'])).toEqual(['a b c d e']);
  });

  it('refuses more than 100 terms before looking at any term', () => {
    const err = problem([...Array.from({ length: 100 }, (_, i) => `t${i}`), '<bad>']);
    expect(err.index).toBeNull();
    expect(err.message).toMatch(/101 terms; at most 100/);
  });

  it.each([
    ['not a string', [7], /keyterms\[0\] must be a string/],
    ['empty', [''], /keyterms\[0\] is empty/],
    ['blank', [' \t '], /keyterms\[0\] is empty/],
    ['50 characters', ['y'.repeat(50)], /50 characters long; at most 49/],
    ['6 words', ['a b c d e f'], /6 words; at most 5/],
    ['less-than', ['a<b'], /"<"/],
    ['greater-than', ['a>b'], /">"/],
    ['left brace', ['a{'], /"\{"/],
    ['right brace', ['}a'], /"\}"/],
    ['left bracket', ['[a'], /"\["/],
    ['right bracket', ['a]'], /"\]"/],
    ['backslash', ['a\\b'], /"\\"/],
    ['a control character', ['a\u0007b'], /U\+0007/],
  ])('refuses a term that is %s', (_rule, terms, message) => {
    const err = problem(terms as unknown[]);
    expect(err.index).toBe(0);
    expect(err.message).toMatch(message as RegExp);
  });

  it('refuses a term twice, ignoring case and spacing, naming both places', () => {
    expect(problem(['a', 'Kafka', 'b', 'KAFKA']).message).toMatch(/keyterms\[3\].*repeats keyterms\[1\]/);
    expect(problem(['New York', 'new  york']).index).toBe(1);
    expect(problem(['Straße', 'STRASSE']).index).toBe(1);
  });

  it('names the first problem in list order', () => {
    const err = problem(['fine', 'a b c d e f', 'x'.repeat(60), '<']);
    expect(err.index).toBe(1);
  });

  it('keeps long terms short in the message', () => {
    expect(problem(['z'.repeat(500)]).message.length).toBeLessThan(200);
  });
});

describe('keytermKey', () => {
  it('is the same for terms that differ only in case, composition or spacing', () => {
    expect(keytermKey(' Café  Noir')).toBe(keytermKey('CAFE\u0301 noir'));
  });
});
