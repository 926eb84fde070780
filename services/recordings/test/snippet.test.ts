import { snippetOf } from '../src/services/search.service';

describe('snippetOf: up to 200 characters around the first match, in whole words', () => {
  const words = (n: number, from = 0) => Array.from({ length: n }, (_, i) => `word${from + i}`).join(' ');

  it('answers a short text whole, and null when nothing matches', () => {
    expect(snippetOf('the budget is fine', ['budget'])).toBe('the budget is fine');
    expect(snippetOf('the budget is fine', ['salary'])).toBeNull();
  });

  it('cuts a long text at spaces, never inside a word, and keeps the match', () => {
    const text = `${words(60)} budget ${words(60, 100)}`;
    const snippet = snippetOf(text, ['budget'])!;
    expect(snippet.length).toBeLessThanOrEqual(200);
    expect(snippet).toContain('budget');
    // Each end is a whole word of the text.
    const tokens = snippet.split(' ');
    const all = new Set(text.split(' '));
    expect(all.has(tokens[0])).toBe(true);
    expect(all.has(tokens[tokens.length - 1])).toBe(true);
    expect(text.includes(snippet)).toBe(true);
  });

  it('keeps a word cut at an edge when no space is near (one very long word)', () => {
    const text = `${'x'.repeat(150)} budget ${'y'.repeat(150)}`;
    const snippet = snippetOf(text, ['budget'])!;
    expect(snippet).toContain('budget');
    expect(snippet.length).toBeLessThanOrEqual(200);
  });

  it('cuts Persian text at spaces too', () => {
    const text = `${'جلسه '.repeat(40)}بودجه ${'گزارش '.repeat(40)}`;
    const snippet = snippetOf(text, ['بودجه'])!;
    expect(snippet).toContain('بودجه');
    expect(snippet.startsWith('جلسه')).toBe(true);
    expect(snippet.endsWith('گزارش')).toBe(true);
  });
});
