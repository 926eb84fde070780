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

export interface VoicedSpanRules {
  itemMs: number;
  bridgeMs: number;
  minRunMs: number;
  rangeDb: number;
  aboveNoiseDb: number;
}

/** Frames between two stored prefix sums: a span's statistics add at most twice this many frames. */
const STRIDE = 32;

/**
 * Prefix sums of per-frame voice features over voiced frames only; change detection asks for
 * thousands of spans. The sums are kept every STRIDE frames (float64) beside each frame's own
 * features (float32, as the cepstra are computed): a 300-minute meeting holds 1.8 million frames,
 * whose full float64 prefix sums and sums of squares took 520 MB, these about 150 MB.
 */
export class VoicePrefix {
  private readonly count: number;
  /** Each frame's cepstra c1..c19, 0 for a frame that is not voiced. */
  private readonly frames: Float32Array;
  private readonly prefix: Float64Array;
  private readonly prefixSq: Float64Array;
  /** Voiced frames before each frame (prefix count, every frame). */
  private readonly n: Int32Array;
  /** Prefix sums of log pitch over voiced, pitched frames; null when the distance gives pitch no weight. */
  private readonly pitch: { n: Float64Array; sum: Float64Array; sq: Float64Array } | null;

  /**
   * Reads the audio block by block, twice: the energies first (the voiced floor is relative to the
   * meeting's loud end), then the features of each block into the store, so neither the samples
   * nor the per-frame spectra are ever held whole. The pitch track, the costliest feature, is
   * computed only when the distance gives it weight.
   */
  static async of(pcm: PcmSource, rangeDb: number, withPitch: boolean): Promise<VoicePrefix> {
    const energyDb = await energyOf(pcm);
    const floorDb = percentile(energyDb, 0.99) - rangeDb;
    const f0 = withPitch ? await pitchOf(pcm, energyDb, floorDb) : null;
    const voice = new VoicePrefix(energyDb.length, f0 !== null, energyDb);
    for await (const { first, ff } of frameFeatureBlocks(pcm)) voice.add(first, ff, f0, floorDb);
    voice.sumStrides();
    return voice;
  }

  private constructor(
    count: number,
    withPitch: boolean,
    /** Each frame's loudness (dBFS): where the voice is, for a caller that wants its own floor. */
    private readonly energyDb: Float32Array,
  ) {
    this.count = count;
    const c = count + 1;
    const strides = Math.floor(count / STRIDE) + 1;
    this.frames = new Float32Array(count * VOICE_DIMS);
    this.prefix = new Float64Array(strides * VOICE_DIMS);
    this.prefixSq = new Float64Array(strides * VOICE_DIMS);
    this.n = new Int32Array(c);
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
      // c0 is loudness, which says more about the microphone than the voice: skipped.
      if (voiced) this.frames.set(ff.mfcc.subarray(k * N_CEPS + 1, k * N_CEPS + 1 + VOICE_DIMS), f * VOICE_DIMS);
    }
  }

  /** The stored prefix sums: at frame 0, STRIDE, 2·STRIDE, ... */
  private sumStrides(): void {
    for (let s = 1; s * STRIDE <= this.count; s++) {
      for (let d = 0; d < VOICE_DIMS; d++) {
        let sum = this.prefix[(s - 1) * VOICE_DIMS + d];
        let sq = this.prefixSq[(s - 1) * VOICE_DIMS + d];
        for (let f = (s - 1) * STRIDE; f < s * STRIDE; f++) {
          const x = this.frames[f * VOICE_DIMS + d];
          sum += x;
          sq += x * x;
        }
        this.prefix[s * VOICE_DIMS + d] = sum;
        this.prefixSq[s * VOICE_DIMS + d] = sq;
      }
    }
  }

  /** Adds the sums over frames [0, frame) of every dimension into `sum` and `sumSq` with `sign`. */
  private addPrefix(frame: number, sign: number, sum: Float64Array, sumSq: Float64Array): void {
    const s = Math.floor(frame / STRIDE);
    for (let d = 0; d < VOICE_DIMS; d++) {
      let a = this.prefix[s * VOICE_DIMS + d];
      let b = this.prefixSq[s * VOICE_DIMS + d];
      for (let f = s * STRIDE; f < frame; f++) {
        const x = this.frames[f * VOICE_DIMS + d];
        a += x;
        b += x * x;
      }
      sum[d] += sign * a;
      sumSq[d] += sign * b;
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

  /**
   * The meeting's voiced stretches as spans of about `itemMs`, from the frames alone (no word
   * times). A frame is voice when it is within `rangeDb` of the meeting's loud end and at least
   * `aboveNoiseDb` over its quiet end (the background's level, so steady noise a little under the
   * range does not join words into one stretch); gaps shorter than `bridgeMs` are filled (the
   * closures inside a word), stretches shorter than `minRunMs` dropped (clicks), and each stretch
   * is cut into equal spans of about `itemMs`.
   */
  voicedSpans(rules: VoicedSpanRules): Array<{ startMs: number; endMs: number }> {
    const floor = Math.max(
      percentile(this.energyDb, 0.99) - rules.rangeDb,
      percentile(this.energyDb, 0.1) + rules.aboveNoiseDb,
    );
    const bridge = Math.max(1, Math.round(rules.bridgeMs / HOP_MS));
    const out: Array<{ startMs: number; endMs: number }> = [];
    const push = (a: number, b: number): void => {
      const len = (b - a) * HOP_MS;
      if (len < rules.minRunMs) return;
      const k = Math.max(1, Math.round(len / rules.itemMs));
      for (let i = 0; i < k; i++) {
        const from = a + Math.round(((b - a) * i) / k);
        const to = a + Math.round(((b - a) * (i + 1)) / k);
        out.push({ startMs: from * HOP_MS, endMs: to * HOP_MS });
      }
    };
    let runStart = -1;
    let lastVoiced = -1;
    for (let f = 0; f < this.count; f++) {
      if (this.energyDb[f] < floor) continue;
      if (runStart >= 0 && f - lastVoiced - 1 >= bridge) {
        push(runStart, lastVoiced + 1);
        runStart = -1;
      }
      if (runStart < 0) runStart = f;
      lastVoiced = f;
    }
    if (runStart >= 0) push(runStart, lastVoiced + 1);
    return out;
  }

  stats(startMs: number, endMs: number): VoiceStats {
    const a = Math.min(this.count, frameAt(startMs));
    const b = Math.min(this.count, Math.max(a, frameAt(endMs)));
    const s = emptyStats(VOICE_DIMS);
    s.n = this.n[b] - this.n[a];
    this.addPrefix(b, 1, s.sum, s.sumSq);
    this.addPrefix(a, -1, s.sum, s.sumSq);
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
