import { dissolve, heardOnce, switchCosts, viterbiSpeakers } from '../src/domain/speaker-viterbi';

/** Per-item log-likelihoods under two speakers: +margin for the one named, -margin for the other. */
const favour = (who: Array<0 | 1>, margin = 10): Float64Array[] =>
  who.map((s) => Float64Array.from([s === 0 ? margin : -margin, s === 1 ? margin : -margin]));

describe('viterbiSpeakers', () => {
  it('follows the evidence when changing speaker is free', () => {
    expect(viterbiSpeakers(favour([0, 1, 1, 0]), [0, 0, 0, 0])).toEqual([0, 1, 1, 0]);
  });

  it('does not change speaker for one item when a change costs more than that item says', () => {
    // One item for speaker 1 gains 20 but two changes cost 50.
    expect(viterbiSpeakers(favour([0, 0, 1, 0, 0]), [0, 25, 25, 25, 25])).toEqual([0, 0, 0, 0, 0]);
  });

  it('changes speaker where a change is cheap even when the other side is short', () => {
    expect(viterbiSpeakers(favour([0, 0, 1, 0, 0]), [0, 25, 0, 0, 25])).toEqual([0, 0, 1, 0, 0]);
  });

  it('keeps a long run of the other voice despite the cost of entering and leaving it', () => {
    const who: Array<0 | 1> = [0, 0, 1, 1, 1, 1, 0, 0];
    expect(viterbiSpeakers(favour(who), [0, 25, 25, 25, 25, 25, 25, 25])).toEqual(who);
  });

  it('gives nothing for no items and the best speaker for one', () => {
    expect(viterbiSpeakers([], [])).toEqual([]);
    expect(viterbiSpeakers(favour([1]), [0])).toEqual([1]);
  });
});

describe('switchCosts', () => {
  it('charges the pause cost after a silence of pauseMs or more and the full cost inside a phrase', () => {
    const words = [
      { word: 'a', startMs: 0, endMs: 300 },
      { word: 'b', startMs: 350, endMs: 600 },
      { word: 'c', startMs: 750, endMs: 900 },
    ];
    expect(switchCosts(words, { cost: 200, pauseMs: 150, pauseCost: 5 })).toEqual([200, 200, 5]);
  });
});

describe('heardOnce', () => {
  it('names the speakers whose words all sit in one unbroken stretch', () => {
    expect(heardOnce(['a', 'a', 'b', 'b', 'a', 'c', 'c'])).toEqual(new Set(['b', 'c']));
    expect(heardOnce(['a', 'b', 'a', 'b'])).toEqual(new Set());
    expect(heardOnce(['a'])).toEqual(new Set(['a']));
  });
});

describe('dissolve', () => {
  it("gives a speaker's words to the speaker before them, or after them at the start", () => {
    expect(dissolve(['a', 'x', 'x', 'b'], 'x')).toEqual(['a', 'a', 'a', 'b']);
    expect(dissolve(['x', 'x', 'b', 'a'], 'x')).toEqual(['b', 'b', 'b', 'a']);
  });

  it('leaves a meeting of that one speaker alone', () => {
    expect(dissolve(['x', 'x'], 'x')).toEqual(['x', 'x']);
  });
});
