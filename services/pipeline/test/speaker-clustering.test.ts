import {
  addFrame,
  closestPair,
  clusterVoices,
  emptyStats,
  logLikelihood,
  mergeStats,
  voiceDistance,
  type VoiceStats,
  widenToward,
} from '../src/domain/speaker-clustering';

/** A voice as frames drawn around a center with a fixed spread (deterministic pseudo-noise). */
function voice(center: number[], pitchHz: number, frames: number, seed: number): VoiceStats {
  const s = emptyStats(center.length);
  let x = seed;
  const rand = (): number => {
    x = (x * 1103515245 + 12345) % 2147483648;
    return x / 2147483648 - 0.5;
  };
  for (let f = 0; f < frames; f++) {
    addFrame(
      s,
      center.map((c) => c + 2 * rand()),
      0,
      pitchHz * (1 + 0.1 * rand()),
    );
  }
  return s;
}

const A = [1, 5, -2, 0, 3];
const B = [4, 2, 1, -3, 0];

describe('voiceDistance', () => {
  it('is near zero for two pieces of one voice and large for different voices', () => {
    const same = voiceDistance(voice(A, 180, 300, 1), voice(A, 180, 300, 2));
    const different = voiceDistance(voice(A, 180, 300, 1), voice(B, 110, 300, 3));
    expect(same).toBeLessThan(1);
    expect(different).toBeGreaterThan(10);
  });

  it('is infinite against an empty piece', () => {
    expect(voiceDistance(emptyStats(5), voice(A, 180, 10, 1))).toBe(Number.POSITIVE_INFINITY);
  });
});

describe('mergeStats', () => {
  it('adds counts and sums', () => {
    const merged = mergeStats(voice(A, 180, 100, 1), voice(A, 180, 50, 2));
    expect(merged.n).toBe(150);
    expect(merged.pitchN).toBe(150);
  });
});

describe('clusterVoices', () => {
  it('groups pieces by voice under the threshold', () => {
    const pieces = [
      voice(A, 180, 300, 1),
      voice(B, 110, 300, 2),
      voice(A, 180, 300, 3),
      voice(B, 110, 300, 4),
      voice(A, 180, 300, 5),
    ];
    const ids = clusterVoices(pieces, 3.25);
    expect(ids[0]).toBe(ids[2]);
    expect(ids[0]).toBe(ids[4]);
    expect(ids[1]).toBe(ids[3]);
    expect(ids[0]).not.toBe(ids[1]);
  });

  it('merges nothing when the threshold is below every distance', () => {
    expect(
      new Set(clusterVoices([voice(A, 180, 300, 1), voice(A, 180, 300, 2), voice(B, 110, 300, 3)], -100)).size,
    ).toBe(3);
  });
});

describe('logLikelihood', () => {
  it('scores a piece of a voice higher under that voice than under another', () => {
    const piece = voice(A, 180, 50, 9);
    const underA = logLikelihood(piece, voice(A, 180, 300, 1), 0.05);
    const underB = logLikelihood(piece, voice(B, 110, 300, 2), 0.05);
    expect(underA).toBeGreaterThan(underB + 100);
  });

  it("equals the sum of the frames' Gaussian log-densities", () => {
    const model = voice(A, 180, 300, 1);
    const frames = [
      [1.5, 4, -2, 0.5, 3],
      [0.2, 5.5, -1, 0, 2.5],
    ];
    const piece = emptyStats(5);
    for (const f of frames) addFrame(piece, f, 0, 0);
    let expected = 0;
    for (const f of frames) {
      for (let d = 0; d < 5; d++) {
        const mean = model.sum[d] / model.n;
        const v = Math.max(model.sumSq[d] / model.n - mean * mean, 0.05);
        expected += -0.5 * (Math.log(2 * Math.PI * v) + (f[d] - mean) ** 2 / v);
      }
    }
    expect(logLikelihood(piece, model, 0.05)).toBeCloseTo(expected, 6);
  });

  it('is 0 for an empty piece and -Infinity under an empty model', () => {
    expect(logLikelihood(emptyStats(5), voice(A, 180, 10, 1), 0.05)).toBe(0);
    expect(logLikelihood(voice(A, 180, 10, 1), emptyStats(5), 0.05)).toBe(Number.NEGATIVE_INFINITY);
  });
});

describe('closestPair', () => {
  it('finds the two pieces of one voice among others', () => {
    expect(closestPair([voice(A, 180, 300, 1), voice(B, 110, 300, 2), voice(A, 180, 300, 3)], 3.25)).toEqual([0, 2]);
  });

  it('finds nothing when every pair is farther than the threshold', () => {
    expect(closestPair([voice(A, 180, 300, 1), voice(B, 110, 300, 2)], 3.25)).toBeNull();
    expect(closestPair([voice(A, 180, 300, 1)], 3.25)).toBeNull();
  });
});

describe('widenToward', () => {
  /** One dimension: frames at the given values. */
  const frames = (...values: number[]): VoiceStats => {
    const s = emptyStats(1);
    for (const v of values) addFrame(s, [v], 0, 0);
    return s;
  };
  const variance = (s: VoiceStats): number => s.sumSq[0] / s.n - (s.sum[0] / s.n) ** 2;

  it('blends the two spreads by frames heard against the prior and keeps the mean and count', () => {
    const narrow = frames(-1, 1, -1, 1); // variance 1, mean 0
    const meeting = frames(-3, 3, -3, 3, 7, 7);
    const wide = widenToward(narrow, meeting, 4);
    expect(wide.n).toBe(4);
    expect(wide.sum[0]).toBeCloseTo(0);
    expect(variance(wide)).toBeCloseTo((4 * 1 + 4 * variance(meeting)) / 8);
  });

  it('changes nothing with no prior, and less the more of the voice there is', () => {
    const few = frames(-1, 1);
    const many = frames(...Array.from({ length: 200 }, (_, i) => (i % 2 ? 1 : -1)));
    const meeting = frames(-5, 5);
    expect(variance(widenToward(few, meeting, 0))).toBeCloseTo(1);
    expect(variance(widenToward(many, meeting, 10))).toBeLessThan(variance(widenToward(few, meeting, 10)));
  });

  it("lets a short voice's unheard sound score closer to it than under its own narrow spread", () => {
    const short = frames(...Array.from({ length: 20 }, (_, i) => (i % 2 ? 0.5 : -0.5)));
    const meeting = mergeStats(short, frames(...Array.from({ length: 400 }, (_, i) => (i % 2 ? 4 : -4))));
    const unheard = frames(2, 2.2, 1.8);
    const before = logLikelihood(unheard, short, 0.05);
    const after = logLikelihood(unheard, widenToward(short, meeting, 100), 0.05);
    expect(after).toBeGreaterThan(before);
  });
});
