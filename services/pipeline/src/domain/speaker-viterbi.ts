/**
 * Resegmentation, pure: given how well each speaker's voice explains each word, the most likely
 * speaker of every word when changing speaker costs something. One state per speaker, the
 * classic Viterbi resegmentation of a diarizer; O(words x speakers).
 */
import type { TimedWord } from './turns';

export interface SwitchRules {
  /** What a change of speaker costs between two words closer than `pauseMs` (log-likelihood units)... */
  cost: number;
  /** ...and between two words at least this far apart, where a change of speaker is natural... */
  pauseMs: number;
  /** ...where it costs this. */
  pauseCost: number;
}

/** The cost of a change of speaker just before each word (the first word's is never used). */
export function switchCosts(words: readonly TimedWord[], rules: SwitchRules): number[] {
  return words.map((w, k) => (k > 0 && w.startMs - words[k - 1].endMs >= rules.pauseMs ? rules.pauseCost : rules.cost));
}

/**
 * `scores[i][s]`: log-likelihood of item i under speaker s; `switchCost[i]`: what a change of
 * speaker between items i - 1 and i costs. Returns the speaker index of each item on the path
 * with the highest total (ties keep the current speaker).
 */
export function viterbiSpeakers(scores: readonly Float64Array[], switchCost: readonly number[]): number[] {
  const n = scores.length;
  if (n === 0) return [];
  const k = scores[0].length;
  const back: Int32Array[] = [];
  let prev = Float64Array.from(scores[0]);
  for (let i = 1; i < n; i++) {
    const cur = new Float64Array(k);
    const from = new Int32Array(k);
    const best = argMax(prev);
    for (let s = 0; s < k; s++) {
      const switched = prev[best] - switchCost[i];
      from[s] = prev[s] >= switched ? s : best;
      cur[s] = Math.max(prev[s], switched) + scores[i][s];
    }
    back.push(from);
    prev = cur;
  }
  const out = new Array<number>(n);
  out[n - 1] = argMax(prev);
  for (let i = n - 1; i >= 1; i--) out[i - 1] = back[i - 1][out[i]];
  return out;
}

function argMax(values: Float64Array): number {
  let best = 0;
  for (let s = 1; s < values.length; s++) if (values[s] > values[best]) best = s;
  return best;
}

/** The labels whose items all sit in one unbroken stretch (a speaker who speaks once and never again). */
export function heardOnce<T>(labels: readonly T[]): Set<T> {
  const once = new Set<T>(labels);
  const closed = new Set<T>();
  for (let k = 0; k < labels.length; k++) {
    if (k > 0 && labels[k] !== labels[k - 1]) closed.add(labels[k - 1]);
    if (closed.has(labels[k])) once.delete(labels[k]);
  }
  return once;
}

/** Gives the items of `gone` to the speaker just before them (just after, at the start): a seed for resegmentation. */
export function dissolve<T>(labels: readonly T[], gone: T): T[] {
  const out = labels.slice();
  const firstOther = out.find((l) => l !== gone);
  if (firstOther === undefined) return out;
  for (let k = 0; k < out.length; k++) if (out[k] === gone) out[k] = k > 0 ? out[k - 1] : firstOther;
  return out;
}
