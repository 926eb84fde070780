import { buildTurns, cleanDecoderWord, labelByFirstAppearance, pauseRuns, smoothShortRuns, type SpeakerWord } from '../src/domain/turns';

const w = (word: string, startMs: number, endMs: number, speaker = 'speaker_0'): SpeakerWord => ({ word, startMs, endMs, speaker });

describe('pauseRuns', () => {
  it('splits where the silence between two words reaches the pause length', () => {
    const words = [w('a', 0, 100), w('b', 120, 200), w('c', 500, 600), w('d', 610, 700)];
    expect(pauseRuns(words, 250)).toEqual([
      { from: 0, to: 2 },
      { from: 2, to: 4 },
    ]);
  });

  it('returns nothing for no words', () => {
    expect(pauseRuns([], 250)).toEqual([]);
  });
});

describe('buildTurns', () => {
  it('starts a new turn at every change of speaker even without a pause', () => {
    const turns = buildTurns([w('hello', 0, 300, 'speaker_0'), w('there', 300, 600, 'speaker_0'), w('hi', 600, 800, 'speaker_1')]);
    expect(turns).toEqual([
      { index: 0, speaker: 'speaker_0', startMs: 0, endMs: 600, text: 'hello there' },
      { index: 1, speaker: 'speaker_1', startMs: 600, endMs: 800, text: 'hi' },
    ]);
  });

  it('starts a new turn for the same speaker after a long pause', () => {
    const turns = buildTurns([w('one', 0, 300), w('two', 3000, 3300)], { maxPauseMs: 2000, maxTurnMs: 45000 });
    expect(turns.map((t) => t.text)).toEqual(['one', 'two']);
  });

  it('cuts a monologue longer than the limit at its next pause', () => {
    const words = Array.from({ length: 10 }, (_, i) => w(`w${i}`, i * 1000, i * 1000 + 700));
    const turns = buildTurns(words, { maxPauseMs: 2000, maxTurnMs: 4000 });
    expect(turns.length).toBeGreaterThan(1);
    expect(turns.every((t) => t.endMs - t.startMs <= 5000)).toBe(true);
    expect(turns.map((t) => t.text).join(' ')).toBe(words.map((x) => x.word).join(' '));
  });
});

describe('labelByFirstAppearance', () => {
  it('names clusters speaker_0, speaker_1 in the order they are first heard', () => {
    expect(labelByFirstAppearance([7, 7, 2, 7, 5, 2])).toEqual({
      labels: ['speaker_0', 'speaker_0', 'speaker_1', 'speaker_0', 'speaker_2', 'speaker_1'],
      speakers: ['speaker_0', 'speaker_1', 'speaker_2'],
    });
  });
});

describe('cleanDecoderWord', () => {
  it('drops fillers and alternate-pronunciation marks', () => {
    expect(cleanDecoderWord('<sil>')).toBeNull();
    expect(cleanDecoderWord('[NOISE]')).toBeNull();
    expect(cleanDecoderWord('to(2)')).toBe('to');
    expect(cleanDecoderWord("don't")).toBe("don't");
  });
});

describe('smoothShortRuns', () => {
  const at = (starts: number[]) => starts.map((s) => ({ word: 'w', startMs: s, endMs: s + 300 }));

  it('gives a short run between two runs of one speaker back to that speaker', () => {
    expect(smoothShortRuns(at([0, 400, 800, 1200, 1600]), ['a', 'a', 'b', 'a', 'a'], 800)).toEqual(['a', 'a', 'a', 'a', 'a']);
  });

  it('keeps a run long enough to be a turn, and a short run between two different speakers', () => {
    expect(smoothShortRuns(at([0, 400, 800, 1200, 1600, 2000]), ['a', 'b', 'b', 'b', 'a', 'a'], 800)).toEqual(['a', 'b', 'b', 'b', 'a', 'a']);
    expect(smoothShortRuns(at([0, 400, 800]), ['a', 'b', 'c'], 800)).toEqual(['a', 'b', 'c']);
  });
});
