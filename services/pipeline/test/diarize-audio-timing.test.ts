/**
 * The pure half of diarizing on the audio's own spans (timing: 'audio'): words take the speaker
 * of the audio they overlap, and turn edges move to where that speaker's voice starts and stops.
 */
import { snapTurns, speakerSpans, wordsFromItems } from '../src/engines/diarize';
import type { Turn } from '../src/domain/turns';

const span = (startMs: number, endMs: number) => ({ word: '', startMs, endMs });

describe('words from the audio spans', () => {
  const items = [span(0, 300), span(300, 600), span(900, 1200), span(1200, 1500)];
  const who = [0, 0, 1, 1];

  it('gives each word the speaker it overlaps most, whatever its own edges', () => {
    const words = [
      { word: 'a', startMs: 100, endMs: 500 },
      // Mostly over speaker 1's voice though it starts in speaker 0's.
      { word: 'b', startMs: 550, endMs: 1150 },
      { word: 'c', startMs: 1250, endMs: 1700 },
    ];
    expect(wordsFromItems(words, items, who)).toEqual([0, 1, 1]);
  });

  it('gives a word that fell into a pause the speaker of the nearest voice', () => {
    expect(wordsFromItems([{ word: 'x', startMs: 620, endMs: 700 }], items, who)).toEqual([0]);
    expect(wordsFromItems([{ word: 'y', startMs: 820, endMs: 880 }], items, who)).toEqual([1]);
    expect(wordsFromItems([{ word: 'z', startMs: 2000, endMs: 2100 }], items, who)).toEqual([1]);
  });

  it("joins one speaker's spans into stretches, a long pause ending one", () => {
    const spans = speakerSpans([...items, span(2000, 2300)], [...who, 1], 250);
    expect(spans).toEqual([
      { speaker: 0, startMs: 0, endMs: 600 },
      { speaker: 1, startMs: 900, endMs: 1500 },
      { speaker: 1, startMs: 2000, endMs: 2300 },
    ]);
  });
});

describe('turn edges snapped to the voice', () => {
  const spans = [
    { speaker: 0, startMs: 1000, endMs: 4000 },
    { speaker: 1, startMs: 4300, endMs: 9000 },
    { speaker: 0, startMs: 9400, endMs: 12000 },
  ];
  const turn = (speaker: string, startMs: number, endMs: number, index = 0): Turn => ({
    index,
    speaker,
    startMs,
    endMs,
    text: 'words',
  });
  const clusterOf = (label: string) => Number(label.slice(-1));

  it("moves each edge to its own speaker's nearest start or end within the limit", () => {
    const out = snapTurns(
      [turn('speaker_0', 1240, 3810), turn('speaker_1', 4050, 9230, 1), turn('speaker_0', 9600, 11700, 2)],
      spans,
      clusterOf,
      500,
    );
    expect(out.map((t) => [t.startMs, t.endMs])).toEqual([
      [1000, 4000],
      [4300, 9000],
      [9400, 12000],
    ]);
  });

  it('leaves an edge with no voice of its speaker near it where the words put it', () => {
    const out = snapTurns([turn('speaker_1', 1200, 3000)], spans, clusterOf, 500);
    expect(out[0]).toMatchObject({ startMs: 1200, endMs: 3000 });
  });
});
