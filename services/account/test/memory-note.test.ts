import { LEARN_MAX_PER_CATEGORY, editedNoteText, learnCandidates, noteKey } from '../src/domain/memory-note';

describe('memory note rules', () => {
  it('judges duplicates with whitespace collapsed and case ignored', () => {
    expect(noteKey('  Sara   Ahmadi ')).toBe(noteKey('sara ahmadi'));
  });

  it('saves an edit trimmed, 1 to 1000 characters, without control characters', () => {
    expect(editedNoteText('  Likes short meetings\n')).toEqual({ text: 'Likes short meetings' });
    expect(editedNoteText('   ')).toHaveProperty('problem');
    expect(editedNoteText('x'.repeat(1001))).toHaveProperty('problem');
    expect(editedNoteText(`  ${'x'.repeat(1000)}  `)).toEqual({ text: 'x'.repeat(1000) });
    expect(editedNoteText('a\u0000b')).toHaveProperty('problem');
  });

  it('turns a meeting into notes per category, dropping blanks, repeats and unusable texts', () => {
    expect(
      learnCandidates({
        people: ['Sara', ' sara ', '', 'Omid'],
        terms: ['NATS', 'bad\u0000'],
        topics: ['x'.repeat(1001), 'Design reviews'],
      }),
    ).toEqual([
      { category: 'ABOUT_YOU', text: 'Design reviews', key: 'design reviews' },
      { category: 'PEOPLE', text: 'Sara', key: 'sara' },
      { category: 'PEOPLE', text: 'Omid', key: 'omid' },
      { category: 'TERMS', text: 'NATS', key: 'nats' },
    ]);
  });

  it('takes at most a bounded number of notes per category from one meeting', () => {
    const people = Array.from({ length: 80 }, (_, i) => `Person ${i}`);
    expect(learnCandidates({ people, terms: [], topics: [] })).toHaveLength(LEARN_MAX_PER_CATEGORY);
  });
});
