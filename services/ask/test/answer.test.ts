import { finishAnswer } from '../src/domain/answer';
import { askPrice } from '@mm/contract';

const turns = [
  { startMs: 0, speaker: 'speaker_0', text: 'Good morning.' },
  { startMs: 4200, speaker: 'speaker_1', text: 'We ship on Friday.' },
  { startMs: 9100, speaker: 'speaker_2', text: 'John fixes the login.' },
  { startMs: 15000, speaker: 'speaker_0', text: 'Budget review on Monday.' },
];
const seriesTurns = [
  { recordingId: 'rec_a', startMs: 0, speaker: 'speaker_0', text: 'one' },
  { recordingId: 'rec_b', startMs: 0, speaker: 'speaker_1', text: 'two' },
];

describe('finishAnswer', () => {
  it('renumbers markers in reading order and lists citations in the order first cited', () => {
    const done = finishAnswer(
      {
        answer: 'John fixes it [2]. We ship Friday [1][2].',
        citations: [{ startMs: 4200 }, { startMs: 9100 }],
        refused: false,
      },
      turns,
      3,
      false,
    );
    expect(done).toEqual({
      ok: true,
      answer: 'John fixes it [1]. We ship Friday [2][1].',
      citations: [
        { startMs: 9100, speaker: 'speaker_2' },
        { startMs: 4200, speaker: 'speaker_1' },
      ],
      refused: false,
    });
  });

  it('drops invented citations and their markers, keeping the real ones', () => {
    const done = finishAnswer(
      { answer: 'A [1]. B [2]. C [3] .', citations: [{ startMs: 777 }, { startMs: 15000 }], refused: false },
      turns,
      3,
      false,
    );
    expect(done).toEqual({
      ok: true,
      answer: 'A. B [1]. C.',
      citations: [{ startMs: 15000, speaker: 'speaker_0' }],
      refused: false,
    });
  });

  it('fails when every citation is invented (GENERATE_FAILED)', () => {
    expect(
      finishAnswer({ answer: 'A [1].', citations: [{ startMs: 1 }], refused: false }, turns, 3, false),
    ).toMatchObject({ ok: false });
  });

  it('keeps an answer that cites nothing (a refusal) as it is', () => {
    expect(finishAnswer({ answer: 'Not said.', citations: [], refused: true }, turns, 3, false)).toEqual({
      ok: true,
      answer: 'Not said.',
      citations: [],
      refused: true,
    });
  });

  it('cites at most the maximum, removing markers beyond it', () => {
    const done = finishAnswer(
      { answer: 'a [1] b [2] c [3] d [4]', citations: turns.map((t) => ({ startMs: t.startMs })), refused: false },
      turns,
      3,
      false,
    );
    expect(done).toMatchObject({ ok: true, answer: 'a [1] b [2] c [3] d' });
    expect(done.ok && done.citations).toHaveLength(3);
  });

  it('in a series, a citation is a turn of the named meeting (the same start time elsewhere is invented)', () => {
    const done = finishAnswer(
      {
        answer: 'x [1] y [2]',
        citations: [
          { recordingId: 'rec_b', startMs: 0 },
          { recordingId: 'rec_c', startMs: 0 },
        ],
        refused: false,
      },
      seriesTurns,
      5,
      true,
    );
    expect(done).toEqual({
      ok: true,
      answer: 'x [1] y',
      citations: [{ recordingId: 'rec_b', startMs: 0, speaker: 'speaker_1' }],
      refused: false,
    });
  });
});

describe('askPrice', () => {
  it('charges a minute per started block of characters, at least one', () => {
    expect(askPrice(0, 4000)).toBe(1);
    expect(askPrice(4000, 4000)).toBe(1);
    expect(askPrice(4001, 4000)).toBe(2);
    expect(askPrice(12_500, 4000)).toBe(4);
  });
});
