/**
 * Who spoke when, offline: the words' pauses give speech runs, a sliding voice comparison
 * splits runs where the voice changes mid-flow, and agglomerative clustering of the pieces'
 * voice statistics (cepstra and pitch) gives the speakers.
 */
import * as os from 'node:os';
import {
  clusterVoices,
  DEFAULT_DISTANCE_RULES,
  type DistanceRules,
  emptyStats,
  mergeStats,
  nearestVoice,
  voiceDistance,
  type VoiceStats,
} from '../domain/speaker-clustering';
import { buildTurns, DEFAULT_TURN_RULES, labelByFirstAppearance, pauseRuns, smoothShortRuns, type SpeakerWord, type TimedWord, type Turn, type TurnRules, type WordRange } from '../domain/turns';
import { withCanonicalWav } from './audio';
import { energyOf, frameFeatureBlocks, pitchOf } from './meeting-frames';
import type { PcmSource } from './pcm-file';
import { frameAt, type FrameFeatures, HOP_MS, N_CEPS } from './voice-features';

export interface DiarizeInput {
  /** Any file ffmpeg reads; the canonical 16 kHz mono wav is read as it is, in blocks. */
  wavPath: string;
  words: readonly TimedWord[];
  /** Where a decoded copy goes when `wavPath` is not the canonical wav. */
  workDir?: string;
}

export interface DiarizeResult {
  /** Labels in order of first appearance: speaker_0, speaker_1, ... */
  speakers: string[];
  words: SpeakerWord[];
  turns: Turn[];
}

export interface Diarizer {
  diarize(input: DiarizeInput): Promise<DiarizeResult>;
}

export interface DiarizeOptions {
  /** A silence this long between words may be a change of speaker. */
  minPauseMs: number;
  /** Each side of a candidate change point is compared over at most this much audio... */
  windowMs: number;
  /** ...and at least this much, or the point is not considered. */
  minWindowMs: number;
  /** Voice distance across a point above which a run is split there. */
  changeThreshold: number;
  /** Clusters closer than this are one speaker. */
  clusterThreshold: number;
  /** Pieces with less speech than this join the nearest speaker instead of founding one... */
  minClusterMs: number;
  /** ...unless several, each with at least this much speech, are far from every speaker and near each other. */
  minShortVoiceMs: number;
  /** Frames quieter than the loud end of the meeting by more than this are not voice. */
  speechRangeDb: number;
  distance: DistanceRules;
  turns: TurnRules;
  /**
   * Resegmentation: after clustering, each word is given the speaker nearest to the voice in a
   * window this long around it (0 turns it off)...
   */
  resegmentWindowMs: number;
  /** ...this many times, re-estimating the speakers from the new labels each time... */
  resegmentPasses: number;
  /** ...and a run of one speaker shorter than this between two runs of another goes back to them. */
  minRunMs: number;
}

// Thresholds first measured on flite's three voices: pieces of 2.5 s or more of one voice stay
// under 3.0 apart, different voices start at 3.5 (rms against awb, the closest pair). Below 2 s
// of speech the two overlap, hence the minimum window. The change threshold sits lower than the
// cluster one on purpose: a needless split is rejoined by the clustering, a missed one is not.
// Real voices (tests/bench/speakers-dev.ts, docs/decisions.md): 19 cepstra without pitch
// separate the three men of the real-voice meetings where 12 cepstra with pitch did not; on
// real voices the pitch track puts up to a tenth of a man's frames near its 400 Hz ceiling, so
// pitch made one speaker's pieces look apart. With the smaller sample bias the same 3.25
// threshold was best on the tuning meetings.
export const REAL_VOICE_DISTANCE: DistanceRules = { ...DEFAULT_DISTANCE_RULES, pitchWeight: 0, sampleBias: 100 };

export const DEFAULT_DIARIZE: DiarizeOptions = {
  minPauseMs: 250,
  windowMs: 2500,
  minWindowMs: 2000,
  changeThreshold: 2.5,
  clusterThreshold: 3.25,
  minClusterMs: 2500,
  minShortVoiceMs: 700,
  speechRangeDb: 35,
  distance: REAL_VOICE_DISTANCE,
  turns: DEFAULT_TURN_RULES,
  resegmentWindowMs: 1500,
  resegmentPasses: 2,
  minRunMs: 800,
};

const DIMS = N_CEPS - 1;

export class VoiceClusterDiarizer implements Diarizer {
  private readonly opts: DiarizeOptions;

  constructor(options: Partial<DiarizeOptions> = {}) {
    this.opts = { ...DEFAULT_DIARIZE, ...options };
  }

  async diarize(input: DiarizeInput): Promise<DiarizeResult> {
    const words = input.words;
    if (words.length === 0) return { speakers: [], words: [], turns: [] };
    const workDir = input.workDir ?? os.tmpdir();
    const withPitch = this.opts.distance.pitchWeight > 0;
    const voice = await withCanonicalWav(input.wavPath, workDir, (pcm) => VoicePrefix.of(pcm, this.opts.speechRangeDb, withPitch));
    const pieces = pauseRuns(words, this.opts.minPauseMs).flatMap((run) => this.splitAtChanges(words, run, voice));
    const stats = pieces.map((p) => voice.stats(words[p.from].startMs, words[p.to - 1].endMs));
    const clusterOf = this.cluster(stats);
    let perWord = new Array<number>(words.length);
    pieces.forEach((p, i) => perWord.fill(clusterOf[i], p.from, p.to));
    if (this.opts.resegmentWindowMs > 0) perWord = this.resegment(words, pieces, perWord, voice);
    const { labels, speakers } = labelByFirstAppearance(perWord);
    const labelled: SpeakerWord[] = words.map((w, k) => ({ ...w, speaker: labels[k] }));
    return { speakers, words: labelled, turns: buildTurns(labelled, this.opts.turns) };
  }

  /** Recursively splits a run at its strongest voice change while that change is clear. */
  private splitAtChanges(words: readonly TimedWord[], run: WordRange, voice: VoicePrefix): WordRange[] {
    const runStart = words[run.from].startMs;
    const runEnd = words[run.to - 1].endMs;
    let best = -1;
    let bestScore = this.opts.changeThreshold;
    for (let b = run.from + 1; b < run.to; b++) {
      const at = words[b].startMs;
      if (at - runStart < this.opts.minWindowMs || runEnd - at < this.opts.minWindowMs) continue;
      const left = voice.stats(Math.max(runStart, at - this.opts.windowMs), words[b - 1].endMs);
      const right = voice.stats(at, Math.min(runEnd, at + this.opts.windowMs));
      const score = voiceDistance(left, right, this.opts.distance);
      if (score > bestScore) {
        bestScore = score;
        best = b;
      }
    }
    if (best < 0) return [run];
    return [...this.splitAtChanges(words, { from: run.from, to: best }, voice), ...this.splitAtChanges(words, { from: best, to: run.to }, voice)];
  }

  /**
   * Pieces are cut only at pauses and clear changes, so a short turn that follows another voice
   * without a pause rides along with it. Each word is compared with every speaker found, over a
   * window centred on it (inside its piece: a boundary already found is not blurred), and takes
   * the nearest; lone short runs are then smoothed away.
   */
  private resegment(words: readonly TimedWord[], pieces: readonly WordRange[], owner: number[], voice: VoicePrefix): number[] {
    let labels = owner.slice();
    const half = this.opts.resegmentWindowMs / 2;
    const windows = pieces.flatMap((p) => {
      const from = words[p.from].startMs;
      const to = words[p.to - 1].endMs;
      return words.slice(p.from, p.to).map((w) => {
        const mid = (w.startMs + w.endMs) / 2;
        return voice.stats(Math.max(from, mid - half), Math.min(to, mid + half));
      });
    });
    for (let pass = 0; pass < this.opts.resegmentPasses; pass++) {
      const ids = [...new Set(labels)];
      const centers = ids.map((id) => {
        let acc = emptyStats(DIMS);
        words.forEach((w, k) => {
          if (labels[k] === id) acc = mergeStats(acc, voice.stats(w.startMs, w.endMs));
        });
        return acc;
      });
      const next = labels.map((label, k) => {
        const near = windows[k].n > 0 ? nearestVoice(windows[k], centers, this.opts.distance) : -1;
        return near >= 0 ? ids[near] : label;
      });
      labels = smoothShortRuns(words, next, this.opts.minRunMs);
    }
    return labels;
  }

  /**
   * Someone who only ever speaks in short turns founds no cluster among the long pieces and would
   * be folded into the nearest other voice. The short pieces far from every long-piece speaker are
   * clustered among themselves; a group with enough speech in all becomes a speaker of its own.
   */
  private foundShortVoices(stats: VoiceStats[], owner: number[]): void {
    const ids = [...new Set(owner.filter((o) => o !== -1))];
    const centers = ids.map((id) => stats.filter((_, i) => owner[i] === id).reduce((acc, s) => mergeStats(acc, s), emptyStats(DIMS)));
    const loose = stats
      .map((_, i) => i)
      .filter((i) => owner[i] === -1 && stats[i].n >= this.opts.minShortVoiceMs / HOP_MS)
      .filter((i) => centers.every((c) => voiceDistance(stats[i], c, this.opts.distance) > this.opts.clusterThreshold));
    if (loose.length < 2) return;
    const groups = clusterVoices(loose.map((i) => stats[i]), this.opts.clusterThreshold, this.opts.distance);
    for (const g of new Set(groups)) {
      const members = loose.filter((_, k) => groups[k] === g);
      if (members.length < 2 || members.reduce((a, i) => a + stats[i].n, 0) < this.opts.minClusterMs / HOP_MS) continue;
      for (const i of members) owner[i] = members[0];
    }
  }

  /** Clusters the long pieces, then gives each short piece the nearest long piece's speaker. */
  private cluster(stats: VoiceStats[]): number[] {
    const minFrames = this.opts.minClusterMs / HOP_MS;
    let anchors = stats.map((s, i) => i).filter((i) => stats[i].n >= minFrames);
    // A meeting of only short remarks still needs speakers: cluster everything that has voice.
    if (anchors.length === 0) anchors = stats.map((s, i) => i).filter((i) => stats[i].n > 0);
    const owner = new Array<number>(stats.length).fill(-1);
    const clusters = clusterVoices(
      anchors.map((i) => stats[i]),
      this.opts.clusterThreshold,
      this.opts.distance,
    );
    anchors.forEach((i, k) => (owner[i] = anchors[clusters[k]]));
    this.foundShortVoices(stats, owner);
    const ids = [...new Set(owner.filter((o) => o !== -1))];
    const centers = ids.map((id) => stats.filter((_, i) => owner[i] === id).reduce((acc, s) => mergeStats(acc, s), emptyStats(DIMS)));
    stats.forEach((s, i) => {
      if (owner[i] !== -1) return;
      const near = s.n > 0 ? nearestVoice(s, centers, this.opts.distance) : -1;
      // A piece with no voiced frames at all (a cough the decoder read as a word) stays with its neighbour.
      owner[i] = near >= 0 ? ids[near] : (owner[i - 1] ?? ids[0] ?? 0);
    });
    return owner;
  }
}

/**
 * Prefix sums of per-frame voice features over voiced frames only, so the statistics of any
 * time span cost O(dimensions) however long it is; change detection asks for thousands.
 */
class VoicePrefix {
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
    this.prefix = new Float64Array(c * DIMS);
    this.prefixSq = new Float64Array(c * DIMS);
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
      for (let d = 0; d < DIMS; d++) {
        // c0 is loudness, which says more about the microphone than the voice: skipped.
        const x = voiced ? ff.mfcc[k * N_CEPS + 1 + d] : 0;
        this.prefix[(f + 1) * DIMS + d] = this.prefix[f * DIMS + d] + x;
        this.prefixSq[(f + 1) * DIMS + d] = this.prefixSq[f * DIMS + d] + x * x;
      }
    }
  }

  stats(startMs: number, endMs: number): VoiceStats {
    const a = Math.min(this.count, frameAt(startMs));
    const b = Math.min(this.count, Math.max(a, frameAt(endMs)));
    const s = emptyStats(DIMS);
    s.n = this.n[b] - this.n[a];
    for (let d = 0; d < DIMS; d++) {
      s.sum[d] = this.prefix[b * DIMS + d] - this.prefix[a * DIMS + d];
      s.sumSq[d] = this.prefixSq[b * DIMS + d] - this.prefixSq[a * DIMS + d];
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
