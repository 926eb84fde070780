/**
 * A meeting's voice features as prefix sums over its voiced frames, read block by block: the
 * statistics of any time span cost O(dimensions) however long it is, and where the voice starts
 * in a span is a short scan of the voiced-frame counts.
 */
import { emptyStats, type VoiceStats } from '../domain/speaker-clustering';
import { energyOf, frameFeatureBlocks, pitchOf } from './meeting-frames';
import type { PcmSource } from './pcm-file';
import { frameAt, type FrameFeatures, HOP_MS, N_CEPS } from './voice-features';

/** Cepstra per frame in the statistics: c1..c19 (c0 is loudness). */
export const VOICE_DIMS = N_CEPS - 1;

/** Prefix sums of per-frame voice features over voiced frames only; change detection asks for thousands of spans. */
export class VoicePrefix {
  private readonly count: number;
  private readonly prefix: Float64Array;
  private readonly prefixSq: Float64Array;
  private readonly n: Float64Array;
  /** Prefix sums of log pitch over voiced, pitched frames; null when the distance gives pitch no weight. */
  private readonly pitch: { n: Float64Array; sum: Float64Array; sq: Float64Array } | null;

  /**
   * Reads the audio block by block, twice: the energies first (the voiced floor is relative to the
   * meeting's loud end), then the features of each block straight into the prefix sums, so neither
   * the samples nor the per-frame cepstra are ever held whole. The pitch track, the costliest
   * feature, is computed only when the distance gives it weight.
   */
  static async of(pcm: PcmSource, rangeDb: number, withPitch: boolean): Promise<VoicePrefix> {
    const energyDb = await energyOf(pcm);
    const floorDb = percentile(energyDb, 0.99) - rangeDb;
    const f0 = withPitch ? await pitchOf(pcm, energyDb, floorDb) : null;
    const voice = new VoicePrefix(energyDb.length, f0 !== null);
    for await (const { first, ff } of frameFeatureBlocks(pcm)) voice.add(first, ff, f0, floorDb);
    return voice;
  }

  private constructor(count: number, withPitch: boolean) {
    this.count = count;
    const c = count + 1;
    this.prefix = new Float64Array(c * VOICE_DIMS);
    this.prefixSq = new Float64Array(c * VOICE_DIMS);
    this.n = new Float64Array(c);
    this.pitch = withPitch ? { n: new Float64Array(c), sum: new Float64Array(c), sq: new Float64Array(c) } : null;
  }

  /** Adds the frames of one block (`ff`, starting at frame `first`); blocks come in order. */
  private add(first: number, ff: FrameFeatures, f0: Float32Array | null, floorDb: number): void {
    for (let k = 0; k < ff.count; k++) {
      const f = first + k;
      const voiced = ff.energyDb[k] >= floorDb;
      this.n[f + 1] = this.n[f] + (voiced ? 1 : 0);
      if (this.pitch && f0) {
        const lp = voiced && f0[f] > 0 ? Math.log(f0[f]) : 0;
        this.pitch.n[f + 1] = this.pitch.n[f] + (lp ? 1 : 0);
        this.pitch.sum[f + 1] = this.pitch.sum[f] + lp;
        this.pitch.sq[f + 1] = this.pitch.sq[f] + lp * lp;
      }
      for (let d = 0; d < VOICE_DIMS; d++) {
        // c0 is loudness, which says more about the microphone than the voice: skipped.
        const x = voiced ? ff.mfcc[k * N_CEPS + 1 + d] : 0;
        this.prefix[(f + 1) * VOICE_DIMS + d] = this.prefix[f * VOICE_DIMS + d] + x;
        this.prefixSq[(f + 1) * VOICE_DIMS + d] = this.prefixSq[f * VOICE_DIMS + d] + x * x;
      }
    }
  }

  /**
   * The start (ms) of the first `minFrames` voiced frames in a row inside [startMs, endMs), or
   * null: a lone loud frame is a click, not the start of speech.
   */
  onset(startMs: number, endMs: number, minFrames: number): number | null {
    const a = Math.min(this.count, frameAt(startMs));
    const b = Math.min(this.count, frameAt(endMs));
    for (let f = a; f + minFrames <= b; f++) if (this.n[f + minFrames] - this.n[f] === minFrames) return f * HOP_MS;
    return null;
  }

  stats(startMs: number, endMs: number): VoiceStats {
    const a = Math.min(this.count, frameAt(startMs));
    const b = Math.min(this.count, Math.max(a, frameAt(endMs)));
    const s = emptyStats(VOICE_DIMS);
    s.n = this.n[b] - this.n[a];
    for (let d = 0; d < VOICE_DIMS; d++) {
      s.sum[d] = this.prefix[b * VOICE_DIMS + d] - this.prefix[a * VOICE_DIMS + d];
      s.sumSq[d] = this.prefixSq[b * VOICE_DIMS + d] - this.prefixSq[a * VOICE_DIMS + d];
    }
    if (this.pitch) {
      s.pitchN = this.pitch.n[b] - this.pitch.n[a];
      s.pitchSum = this.pitch.sum[b] - this.pitch.sum[a];
      s.pitchSumSq = this.pitch.sq[b] - this.pitch.sq[a];
    }
    return s;
  }
}

function percentile(values: Float32Array, q: number): number {
  if (values.length === 0) return 0;
  const sorted = Float32Array.from(values).sort();
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
}
