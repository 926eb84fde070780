import { addFrame, clusterVoices, emptyStats, mergeStats, voiceDistance, type VoiceStats } from '../src/domain/speaker-clustering';

/** A voice as frames drawn around a center with a fixed spread (deterministic pseudo-noise). */
function voice(center: number[], pitchHz: number, frames: number, seed: number): VoiceStats {
  const s = emptyStats(center.length);
  let x = seed;
  const rand = (): number => {
    x = (x * 1103515245 + 12345) % 2147483648;
    return x / 2147483648 - 0.5;
  };
  for (let f = 0; f < frames; f++) {
    addFrame(s, center.map((c) => c + 2 * rand()), 0, pitchHz * (1 + 0.1 * rand()));
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
    const pieces = [voice(A, 180, 300, 1), voice(B, 110, 300, 2), voice(A, 180, 300, 3), voice(B, 110, 300, 4), voice(A, 180, 300, 5)];
    const ids = clusterVoices(pieces, 3.25);
    expect(ids[0]).toBe(ids[2]);
    expect(ids[0]).toBe(ids[4]);
    expect(ids[1]).toBe(ids[3]);
    expect(ids[0]).not.toBe(ids[1]);
  });

  it('merges nothing when the threshold is below every distance', () => {
    expect(new Set(clusterVoices([voice(A, 180, 300, 1), voice(A, 180, 300, 2), voice(B, 110, 300, 3)], -100)).size).toBe(3);
  });
});
