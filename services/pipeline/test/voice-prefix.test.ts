import type { PcmSource } from '../src/engines/pcm-file';
import { HOP_MS } from '../src/engines/voice-features';
import { VOICE_DIMS, VoicePrefix } from '../src/engines/voice-prefix';

/** 20 s of two alternating "voices" (harmonic tones) over a little noise, deterministic. */
function signal(): Float32Array {
  const out = new Float32Array(20 * 16000);
  let seed = 7;
  for (let i = 0; i < out.length; i++) {
    seed = (seed * 1103515245 + 12345) & 0x7fffffff;
    const second = Math.floor(i / 16000);
    const f0 = second % 4 < 2 ? 120 : 210;
    const loud = second % 5 === 4 ? 0 : 0.2;
    out[i] =
      loud * (Math.sin((2 * Math.PI * f0 * i) / 16000) + 0.5 * Math.sin((4 * Math.PI * f0 * i) / 16000)) +
      0.001 * (seed / 0x7fffffff - 0.5);
  }
  return out;
}

describe('VoicePrefix', () => {
  it('gives any span the sums of its frames one by one, sums being stored only every 32 frames', async () => {
    const samples = signal();
    const source: PcmSource = {
      sampleCount: samples.length,
      read: async (from, to) => samples.slice(Math.max(0, from), Math.min(samples.length, to)),
    };
    const voice = await VoicePrefix.of(source, 35, false);
    for (const [startMs, endMs] of [
      [0, 20_000],
      [10, 330],
      [1230, 1250],
      [3000, 9990],
      [15_550, 19_870],
      [500, 500],
    ]) {
      const s = voice.stats(startMs, endMs);
      // The reference: the span's frames one at a time (each a span inside one stride).
      const sum = new Float64Array(VOICE_DIMS);
      const sq = new Float64Array(VOICE_DIMS);
      let n = 0;
      for (let ms = startMs; ms < endMs; ms += HOP_MS) {
        const one = voice.stats(ms, ms + HOP_MS);
        n += one.n;
        for (let d = 0; d < VOICE_DIMS; d++) {
          sum[d] += one.sum[d];
          sq[d] += one.sumSq[d];
        }
      }
      expect(s.n).toBe(n);
      if (endMs - startMs > 5000) expect(n).toBeGreaterThan(100);
      for (let d = 0; d < VOICE_DIMS; d++) {
        expect(s.sum[d]).toBeCloseTo(sum[d], 6);
        expect(s.sumSq[d]).toBeCloseTo(sq[d], 4);
      }
    }
  });
});
