import {
  buildTurns,
  cleanDecoderWord,
  labelByFirstAppearance,
  pauseRuns,
  startTurnsAtVoice,
  type SpeakerWord,
} from '../src/domain/turns';

const w = (word: string, startMs: number, endMs: number, speaker = 'speaker_0'): SpeakerWord => ({
  word,
  startMs,
  endMs,
  speaker,
});

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
    const turns = buildTurns([
      w('hello', 0, 300, 'speaker_0'),
      w('there', 300, 600, 'speaker_0'),
      w('hi', 600, 800, 'speaker_1'),
    ]);
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

describe('startTurnsAtVoice', () => {
  const turns = buildTurns([
    w('uh', 0, 900, 'speaker_0'),
    w('five', 1600, 2100, 'speaker_0'),
    w('hi', 2300, 2600, 'speaker_1'),
  ]);

  it("moves a turn's start to the first voice inside it and keeps its words", () => {
    const moved = startTurnsAtVoice(turns, (from) => (from === 0 ? 1550 : from + 20));
    expect(moved.map((t) => [t.startMs, t.endMs, t.text])).toEqual([
      [1550, 2100, 'uh five'],
      [2320, 2600, 'hi'],
    ]);
  });

  it('keeps the start when there is no voice in the turn or the onset falls outside it', () => {
    expect(startTurnsAtVoice(turns, () => null)).toEqual(turns);
    expect(startTurnsAtVoice(turns, () => 5000)).toEqual(turns);
  });
});
