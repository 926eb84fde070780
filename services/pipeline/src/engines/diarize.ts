/**
 * Who spoke when, offline: the words' pauses give speech runs, a sliding voice comparison
 * splits runs where the voice changes mid-flow, and agglomerative clustering of the pieces'
 * voice statistics (cepstra) gives first speakers. A Viterbi resegmentation then gives every
 * word the speaker whose voice explains it best, changes of speaker costing something, and
 * speakers that turn out to be one voice are merged; each turn starts where its voice does.
 */
import * as os from 'node:os';
import {
  closestPair,
  clusterVoices,
  DEFAULT_DISTANCE_RULES,
  type DistanceRules,
  emptyStats,
  logLikelihood,
  mergeStats,
  nearestVoice,
  voiceDistance,
  type VoiceStats,
  widenToward,
} from '../domain/speaker-clustering';
import { dissolve, heardOnce, type SwitchRules, switchCosts, viterbiSpeakers } from '../domain/speaker-viterbi';
import {
  buildTurns,
  DEFAULT_TURN_RULES,
  labelByFirstAppearance,
  pauseRuns,
  type SpeakerWord,
  startTurnsAtVoice,
  type TimedWord,
  type Turn,
  type TurnRules,
  type WordRange,
} from '../domain/turns';
import { withCanonicalWav } from './audio';
import { VOICE_DIMS as DIMS, VoicePrefix } from './voice-prefix';
import { HOP_MS } from './voice-features';

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
   * Resegmentation: every word goes to the speaker whose voice explains it best, changes of
   * speaker costing this (see SwitchRules), this many times, re-estimating the speakers each time
   * (0 turns it off)...
   */
  resegmentPasses: number;
  switches: SwitchRules;
  /** ...then the two nearest speakers are merged while they are closer than this, and it runs again... */
  mergeThreshold: number;
  /**
   * ...and a speaker heard in one unbroken stretch with less voice than this is dissolved into the
   * others, when that voice is also less than `loneSpeakerMaxShare` of the meeting's: in a short
   * meeting where each person speaks once, each of them is a large part of it.
   */
  minLoneSpeakerMs: number;
  loneSpeakerMaxShare: number;
  /**
   * Once the speakers are settled, the words are placed once more with each speaker's spread
   * drawn toward the whole meeting's, as if this much voice had been heard with the meeting's
   * spread (`widenToward`; 0: no last placement).
   */
  spreadPriorMs: number;
  /** A turn starts at the first run of this many voiced frames in it (0: at its first word). */
  onsetFrames: number;
  /**
   * What the voices are compared over: `words` (each word's own span, for a recognizer whose word
   * times are exact) or `audio` (spans of about `audio.itemMs` cut from the voiced frames
   * themselves, for word times as coarse as a Whisper-class server's; words then take the speaker
   * of the audio they overlap most, and turn edges move to where that speaker's voice starts and
   * stops).
   */
  timing: 'words' | 'audio';
  audio: AudioTimingRules;
}

export interface AudioTimingRules {
  /** Voiced stretches are cut into spans of about this long (a word's length)... */
  itemMs: number;
  /** ...a gap in the voice shorter than this does not end a stretch (closures inside a word)... */
  bridgeMs: number;
  /** ...a stretch shorter than this is a click, not voice... */
  minRunMs: number;
  /** ...and only spans within this of some word are voice someone said words in. */
  nearWordMs: number;
  /** A frame is voice within this of the meeting's loud end... */
  rangeDb: number;
  /** ...and this far over its quiet end (the background). */
  aboveNoiseDb: number;
  /**
   * Between spans a change of speaker costs nothing only after a pause this long (`switches.pauseMs`
   * is for the gaps between words; spans already end at every 100 ms gap in the voice).
   */
  switchPauseMs: number;
  /** A turn's start (end) moves to its speaker's nearest voice start (end) at most this far away. */
  snapMs: number;
}

// Thresholds first measured on flite's three voices: pieces of 2.5 s or more of one voice stay
// under 3.0 apart, different voices start at 3.5 (rms against awb, the closest pair). Below 2 s
// of speech the two overlap, hence the minimum window. The change threshold sits lower than the
// cluster one on purpose: a needless split is rejoined by the clustering, a missed one is not.
// Real voices (tests/bench/speakers-dev.ts, docs/decisions.md): 19 cepstra without pitch
// separate the three men of the real-voice meetings where 12 cepstra with pitch did not; on
// real voices the pitch track puts up to a tenth of a man's frames near its 400 Hz ceiling, so
// pitch made one speaker's pieces look apart. Since the Viterbi resegmentation and the merge
// after it, the cluster threshold is 2.5: 2.25-2.75 give the same tuning figures, 3.0 and more
// merge speakers before the resegmentation can part them (docs/decisions.md, session 12).
export const REAL_VOICE_DISTANCE: DistanceRules = { ...DEFAULT_DISTANCE_RULES, pitchWeight: 0, sampleBias: 100 };

export const DEFAULT_DIARIZE: DiarizeOptions = {
  minPauseMs: 250,
  windowMs: 2500,
  minWindowMs: 2000,
  changeThreshold: 2.5,
  clusterThreshold: 2.5,
  minClusterMs: 2500,
  minShortVoiceMs: 700,
  speechRangeDb: 35,
  distance: REAL_VOICE_DISTANCE,
  turns: DEFAULT_TURN_RULES,
  resegmentPasses: 2,
  switches: { cost: 200, pauseMs: 150, pauseCost: 0 },
  mergeThreshold: 2.5,
  minLoneSpeakerMs: 5000,
  loneSpeakerMaxShare: 0.2,
  spreadPriorMs: 12000,
  onsetFrames: 5,
  timing: 'words',
  // Chosen on the bench's two meetings and two tuning ones with word times moved ±250 ms
  // (tests/bench/speakers-dev.ts, docs/decisions.md "Speaker turns on coarse word times").
  audio: {
    itemMs: 300,
    bridgeMs: 100,
    minRunMs: 60,
    nearWordMs: 500,
    rangeDb: 35,
    aboveNoiseDb: 6,
    switchPauseMs: 300,
    snapMs: 750,
  },
};

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
    const voice = await withCanonicalWav(input.wavPath, workDir, (pcm) =>
      VoicePrefix.of(pcm, this.opts.speechRangeDb, withPitch),
    );
    const items = this.opts.timing === 'audio' ? this.audioItems(words, voice) : [];
    let perWord: number[];
    let segments: SpeakerSpan[] = [];
    if (items.length > 0) {
      const perItem = this.speakerOf(items, voice, { ...this.opts.switches, pauseMs: this.opts.audio.switchPauseMs });
      perWord = wordsFromItems(words, items, perItem);
      segments = speakerSpans(items, perItem, this.opts.minPauseMs);
    } else {
      perWord = this.speakerOf(words, voice, this.opts.switches);
    }
    const { labels, speakers } = labelByFirstAppearance(perWord);
    const labelled: SpeakerWord[] = words.map((w, k) => ({ ...w, speaker: labels[k] }));
    let turns = buildTurns(labelled, this.opts.turns);
    if (segments.length > 0) {
      const clusterOf = new Map(labels.map((label, k) => [label, perWord[k]]));
      turns = snapTurns(turns, segments, (label) => clusterOf.get(label) ?? -1, this.opts.audio.snapMs);
    }
    if (this.opts.onsetFrames <= 0) return { speakers, words: labelled, turns };
    const onset = (from: number, to: number): number | null => voice.onset(from, to, this.opts.onsetFrames);
    return { speakers, words: labelled, turns: startTurnsAtVoice(turns, onset) };
  }

  /** Who speaks each item (a word, or a span of audio): a cluster id per item. */
  private speakerOf(items: readonly TimedWord[], voice: VoicePrefix, switches: SwitchRules): number[] {
    const pieces = pauseRuns(items, this.opts.minPauseMs).flatMap((run) => this.splitAtChanges(items, run, voice));
    const stats = pieces.map((p) => voice.stats(items[p.from].startMs, items[p.to - 1].endMs));
    const clusterOf = this.cluster(stats);
    const perItem = new Array<number>(items.length);
    pieces.forEach((p, i) => perItem.fill(clusterOf[i], p.from, p.to));
    return this.opts.resegmentPasses > 0 ? this.resegment(items, perItem, voice, switches) : perItem;
  }

  /** The voiced spans of the audio near some word: what `timing: 'audio'` compares voices over. */
  private audioItems(words: readonly TimedWord[], voice: VoicePrefix): TimedWord[] {
    const a = this.opts.audio;
    const spans = voice.voicedSpans(a);
    const out: TimedWord[] = [];
    let k = 0;
    for (const s of spans) {
      while (k < words.length && words[k].endMs + a.nearWordMs <= s.startMs) k++;
      // Words are in start order; a long word may still reach past a later one's end.
      let near = false;
      for (let j = Math.max(0, k - 8); j < words.length && words[j].startMs - a.nearWordMs < s.endMs; j++)
        if (words[j].endMs + a.nearWordMs > s.startMs) {
          near = true;
          break;
        }
      if (near) out.push({ word: '', startMs: s.startMs, endMs: s.endMs });
    }
    return out;
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
    return [
      ...this.splitAtChanges(words, { from: run.from, to: best }, voice),
      ...this.splitAtChanges(words, { from: best, to: run.to }, voice),
    ];
  }

  /**
   * Pieces are cut only at pauses and clear changes, so a short turn that follows another voice
   * without a pause rides along with it, and a piece that holds two voices blurs both speakers.
   * Each word's frames are scored under every speaker's Gaussian (from its sufficient
   * statistics) and the best path over the words, changes of speaker costing something, gives
   * the new labels; speakers are re-estimated from them. A speaker that the mixed pieces had
   * split in two then sits close to its other half: the closest pair under the merge threshold
   * becomes one speaker, or else a slight speaker heard only once is dissolved, and the words
   * are placed again, until neither is left. Last, the words are placed once more with the
   * speakers' spreads widened toward the meeting's: a voice heard only in short turns has shown
   * too few of its sounds for its own spread (see widenToward).
   */
  private resegment(words: readonly TimedWord[], owner: number[], voice: VoicePrefix, switches: SwitchRules): number[] {
    let labels = owner.slice();
    const perWord = words.map((w) => voice.stats(w.startMs, w.endMs));
    const costs = switchCosts(words, switches);
    const speakersOf = (): { ids: number[]; voices: VoiceStats[] } => {
      const ids = [...new Set(labels)];
      const voices = ids.map(() => emptyStats(DIMS));
      labels.forEach((label, k) => {
        const i = ids.indexOf(label);
        voices[i] = mergeStats(voices[i], perWord[k]);
      });
      return { ids, voices };
    };
    const placeOnce = (priorFrames: number): void => {
      const { ids, voices } = speakersOf();
      const pooled = priorFrames > 0 ? voices.reduce((acc, v) => mergeStats(acc, v), emptyStats(DIMS)) : null;
      const models = pooled ? voices.map((v) => widenToward(v, pooled, priorFrames)) : voices;
      const floor = this.opts.distance.varFloor;
      const scores = perWord.map((s) => Float64Array.from(models, (v) => logLikelihood(s, v, floor)));
      labels = viterbiSpeakers(scores, costs).map((best) => ids[best]);
    };
    const place = (): void => {
      for (let pass = 0; pass < this.opts.resegmentPasses; pass++) placeOnce(0);
    };
    place();
    for (;;) {
      const { ids, voices } = speakersOf();
      const pair = closestPair(voices, this.opts.mergeThreshold, this.opts.distance);
      if (pair) {
        const [keep, gone] = [ids[pair[0]], ids[pair[1]]];
        labels = labels.map((label) => (label === gone ? keep : label));
      } else {
        const lone = this.slightLoneSpeaker(labels, ids, voices);
        if (lone === null) break;
        labels = dissolve(labels, lone);
      }
      place();
    }
    // Only now: with widened spreads from the start, the merges and the lone-speaker rule (set on
    // each voice's own spread) found a fifth speaker on a 4-speaker meeting (docs/decisions.md).
    if (this.opts.spreadPriorMs > 0) placeOnce(this.opts.spreadPriorMs / HOP_MS);
    return labels;
  }

  /**
   * The speaker with the least voice among those heard in one unbroken stretch with less than
   * `minLoneSpeakerMs` of voice and less than `loneSpeakerMaxShare` of the meeting's, or null. Such a "speaker" was, on the real-voice meetings, a
   * stretch of overlapped speech or a piece of one voice's long turn, not a participant.
   */
  private slightLoneSpeaker(
    labels: readonly number[],
    ids: readonly number[],
    voices: readonly VoiceStats[],
  ): number | null {
    if (ids.length < 2) return null;
    const once = heardOnce(labels);
    let lone: number | null = null;
    const all = voices.reduce((sum, v) => sum + v.n, 0);
    let least = Math.min(this.opts.minLoneSpeakerMs / HOP_MS, all * this.opts.loneSpeakerMaxShare);
    ids.forEach((id, i) => {
      if (once.has(id) && voices[i].n < least) {
        least = voices[i].n;
        lone = id;
      }
    });
    return lone;
  }

  /**
   * Someone who only ever speaks in short turns founds no cluster among the long pieces and would
   * be folded into the nearest other voice. The short pieces far from every long-piece speaker are
   * clustered among themselves; a group with enough speech in all becomes a speaker of its own.
   */
  private foundShortVoices(stats: VoiceStats[], owner: number[]): void {
    const ids = [...new Set(owner.filter((o) => o !== -1))];
    const centers = ids.map((id) =>
      stats.filter((_, i) => owner[i] === id).reduce((acc, s) => mergeStats(acc, s), emptyStats(DIMS)),
    );
    const loose = stats
      .map((_, i) => i)
      .filter((i) => owner[i] === -1 && stats[i].n >= this.opts.minShortVoiceMs / HOP_MS)
      .filter((i) => centers.every((c) => voiceDistance(stats[i], c, this.opts.distance) > this.opts.clusterThreshold));
    if (loose.length < 2) return;
    const groups = clusterVoices(
      loose.map((i) => stats[i]),
      this.opts.clusterThreshold,
      this.opts.distance,
    );
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
    const centers = ids.map((id) =>
      stats.filter((_, i) => owner[i] === id).reduce((acc, s) => mergeStats(acc, s), emptyStats(DIMS)),
    );
    stats.forEach((s, i) => {
      if (owner[i] !== -1) return;
      const near = s.n > 0 ? nearestVoice(s, centers, this.opts.distance) : -1;
      // A piece with no voiced frames at all (a cough the decoder read as a word) stays with its neighbour.
      owner[i] = near >= 0 ? ids[near] : (owner[i - 1] ?? ids[0] ?? 0);
    });
    return owner;
  }
}

/** A stretch of one speaker's voice, from the audio's own spans. */
export interface SpeakerSpan {
  speaker: number;
  startMs: number;
  endMs: number;
}

/**
 * Each word takes the speaker whose spans it overlaps longest; a word over no span (its time
 * moved into a pause) takes the speaker of the nearest span.
 */
export function wordsFromItems(
  words: readonly TimedWord[],
  items: readonly TimedWord[],
  perItem: readonly number[],
): number[] {
  return words.map((w) => {
    let lo = 0;
    let hi = items.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (items[mid].endMs <= w.startMs) lo = mid + 1;
      else hi = mid;
    }
    const overlap = new Map<number, number>();
    for (let i = lo; i < items.length && items[i].startMs < w.endMs; i++) {
      const ms = Math.min(w.endMs, items[i].endMs) - Math.max(w.startMs, items[i].startMs);
      if (ms > 0) overlap.set(perItem[i], (overlap.get(perItem[i]) ?? 0) + ms);
    }
    if (overlap.size > 0) return [...overlap.entries()].sort((a, b) => b[1] - a[1])[0][0];
    const mid = (w.startMs + w.endMs) / 2;
    const gap = (i: number): number =>
      i < 0 || i >= items.length ? Number.POSITIVE_INFINITY : Math.max(items[i].startMs - mid, mid - items[i].endMs);
    return gap(lo - 1) <= gap(lo) ? perItem[lo - 1] : perItem[lo];
  });
}

/** Runs of items of one speaker, a pause of at least `pauseMs` ending a run. */
export function speakerSpans(items: readonly TimedWord[], perItem: readonly number[], pauseMs: number): SpeakerSpan[] {
  const out: SpeakerSpan[] = [];
  items.forEach((it, i) => {
    const last = out[out.length - 1];
    if (last && last.speaker === perItem[i] && it.startMs - last.endMs < pauseMs) last.endMs = it.endMs;
    else out.push({ speaker: perItem[i], startMs: it.startMs, endMs: it.endMs });
  });
  return out;
}

/**
 * Coarse word times put a turn's edges up to a word's error away from where the voice changes;
 * each edge moves to the nearest start (end) of its speaker's own voice within `snapMs`.
 */
export function snapTurns(
  turns: readonly Turn[],
  spans: readonly SpeakerSpan[],
  clusterOf: (speaker: string) => number,
  snapMs: number,
): Turn[] {
  // Each speaker's span starts and ends, in time order (spans come in order and do not overlap).
  const edges = new Map<number, { startMs: number[]; endMs: number[] }>();
  for (const s of spans) {
    const e = edges.get(s.speaker) ?? { startMs: [], endMs: [] };
    e.startMs.push(s.startMs);
    e.endMs.push(s.endMs);
    edges.set(s.speaker, e);
  }
  const nearest = (at: number, speaker: number, edge: 'startMs' | 'endMs'): number => {
    const times = edges.get(speaker)?.[edge];
    if (!times || times.length === 0) return at;
    let lo = 0;
    let hi = times.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (times[mid] < at) lo = mid + 1;
      else hi = mid;
    }
    let best = at;
    let dist = snapMs + 1;
    for (const i of [lo - 1, lo]) {
      if (i < 0 || i >= times.length) continue;
      const d = Math.abs(times[i] - at);
      if (d < dist) {
        dist = d;
        best = times[i];
      }
    }
    return best;
  };
  return turns.map((t) => {
    const speaker = clusterOf(t.speaker);
    const startMs = nearest(t.startMs, speaker, 'startMs');
    const endMs = nearest(t.endMs, speaker, 'endMs');
    return endMs > startMs ? { ...t, startMs, endMs } : t;
  });
}
