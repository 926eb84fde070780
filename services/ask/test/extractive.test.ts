import { extractiveAnswer } from '../src/domain/extractive';
import { contentWords, EXCERPT_MAX_WORDS, excerptOf, rankTurns } from '../src/domain/retrieval';

const turns = [
  { startMs: 0, speaker: 'speaker_0', text: 'Good morning everyone, the new release is almost ready.' },
  { startMs: 5000, speaker: 'speaker_1', text: 'We decided to ship the release on Friday.' },
  { startMs: 9000, speaker: 'speaker_2', text: 'The customer survey shows people want a faster search page.' },
  { startMs: 14000, speaker: 'speaker_1', text: 'John will fix the login problem before Thursday.' },
];
const ask = (question: string, extra: Partial<Parameters<typeof extractiveAnswer>[0]> = {}) =>
  extractiveAnswer({ question, turns, maxCitations: 3, series: false, history: [], ...extra });

describe('rankTurns (BM25)', () => {
  it('puts the turn that shares the rarest words first and leaves out turns that share none', () => {
    const ranked = rankTurns('Who fixes the login problem?', turns);
    expect(ranked[0].turn.startMs).toBe(14000);
    expect(ranked.map((r) => r.turn.startMs)).not.toContain(9000);
  });
  it('matches word forms that share a stem of four letters or more (ship, shipping)', () => {
    expect(rankTurns('shipping date', turns)[0].turn.startMs).toBe(5000);
  });
  it('reads Persian with its letter forms normalized', () => {
    const fa = [
      { startMs: 0, speaker: 'speaker_0', text: 'جلسهٔ بودجه دوشنبه برگزار می‌شود.' },
      { startMs: 3000, speaker: 'speaker_1', text: 'گزارش فروش آماده است.' },
    ];
    expect(rankTurns('بودجه كی بررسی می‌شود؟', fa)[0].turn.startMs).toBe(0);
  });
  it('ignores words that say nothing (what, the, meeting)', () => {
    expect(contentWords('What did the meeting say about the budget?')).toEqual(['budget']);
  });
});

describe('extractiveAnswer', () => {
  it("answers with the best turns' own words in reading order, each followed by its marker", () => {
    const draft = ask('When will the release ship?');
    expect(draft.refused).toBe(false);
    expect(draft.citations[0]).toEqual({ startMs: 5000 });
    expect(draft.citations.map((c) => c.startMs)).toEqual(
      [...draft.citations.map((c) => c.startMs)].sort((a, b) => a - b),
    );
    expect(draft.answer).toMatch(/ship the release on Friday \[\d\]/);
  });
  it('declines a question no turn shares a word with, citing nothing, in the language of the question', () => {
    expect(ask('Which zebra painted the volcano?')).toEqual({
      answer: expect.stringContaining('does not say'),
      citations: [],
      refused: true,
    });
    expect(ask('زرافه کجاست؟').answer).toContain('گفته نشده');
  });
  it('reads a short follow-up with the previous question', () => {
    const draft = ask('And when?', { history: [{ question: 'Who fixes the login problem?', answer: '…' }] });
    expect(draft.citations).toContainEqual({ startMs: 14000 });
  });
  it('reads a one-word follow-up the meeting says with the previous question', () => {
    const draft = ask('Thursday?', { history: [{ question: 'Who fixes the login problem?', answer: '…' }] });
    expect(draft.citations).toContainEqual({ startMs: 14000 });
  });
  it('declines a one-word question the meeting never says, instead of answering the previous one (outside review, session 39)', () => {
    const history = [{ question: 'When will the release ship?', answer: '…' }];
    expect(ask(`  ${'a'.repeat(500)}  `, { history })).toEqual({
      answer: expect.stringContaining('does not say'),
      citations: [],
      refused: true,
    });
    expect(ask('zebra?', { history }).refused).toBe(true);
  });
  it('cites at most maxCitations turns', () => {
    expect(ask('release ship Friday survey search login morning', { maxCitations: 2 }).citations).toHaveLength(2);
  });
});

describe('excerptOf', () => {
  const long = Array.from({ length: 60 }, (_, i) => `word${i}`).join(' ');
  it('quotes a short turn whole', () => {
    expect(excerptOf('We ship on Friday.', 'ship')).toBe('We ship on Friday.');
  });
  it('quotes the sentences of a long turn that share a word with the question', () => {
    const text = `${long}. We ship the release on Friday. ${long}.`;
    expect(excerptOf(text, 'When do we ship?')).toBe('We ship the release on Friday.');
  });
  it('quotes a window around the first shared word of a long unpunctuated turn', () => {
    const text = `${long} we ship the release on friday ${long}`;
    const quoted = excerptOf(text, 'ship release');
    expect(quoted.startsWith('… ')).toBe(true);
    expect(quoted.endsWith(' …')).toBe(true);
    expect(quoted).toContain('we ship the release on friday');
    expect(quoted.split(/\s+/).length).toBeLessThanOrEqual(EXCERPT_MAX_WORDS + 2);
  });
});
