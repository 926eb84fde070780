/**
 * Scores a transcript against the timeline a meeting was assembled from: word error rate on the
 * turns that have references, diarization error rate (NIST style, 10 ms frames, a collar around
 * each reference boundary), and how far each reference turn's start is from the nearest
 * hypothesis turn of the same (mapped) speaker.
 */

export interface RefTurn {
  speaker: string;
  reference: string | null;
  startMs: number;
  endMs: number;
}

export interface HypWord {
  word: string;
  startMs: number;
  endMs: number;
}

export interface HypTurn {
  speaker: string;
  startMs: number;
  endMs: number;
}

/** Word-level Levenshtein distance. */
export function editDistance(ref: readonly string[], hyp: readonly string[]): number {
  let prev = Array.from({ length: hyp.length + 1 }, (_, j) => j);
  for (let i = 1; i <= ref.length; i++) {
    const cur = [i];
    for (let j = 1; j <= hyp.length; j++) {
      cur[j] = Math.min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (ref[i - 1] === hyp[j - 1] ? 0 : 1));
    }
    prev = cur;
  }
  return prev[hyp.length];
}

/**
 * Each hypothesis word goes to the reference turn it overlaps most (the nearest when it overlaps
 * none); WER = edits / reference words over the turns that have a reference.
 */
export function wordErrorRate(
  turns: readonly RefTurn[],
  words: readonly HypWord[],
): { wer: number; errors: number; refWords: number } {
  const perTurn: string[][] = turns.map(() => []);
  for (const w of words) {
    let best = 0;
    let bestScore = Number.NEGATIVE_INFINITY;
    turns.forEach((t, i) => {
      const overlap = Math.min(w.endMs, t.endMs) - Math.max(w.startMs, t.startMs);
      if (overlap > bestScore) {
        bestScore = overlap;
        best = i;
      }
    });
    perTurn[best].push(w.word.toLowerCase());
  }
  let errors = 0;
  let refWords = 0;
  turns.forEach((t, i) => {
    if (t.reference === null) return;
    const ref = t.reference.split(' ').filter(Boolean);
    errors += editDistance(ref, perTurn[i]);
    refWords += ref.length;
  });
  return { wer: refWords ? errors / refWords : 0, errors, refWords };
}

export interface DiarizationScore {
  /** Shares of scored reference speech time. */
  der: number;
  missed: number;
  falseAlarm: number;
  confusion: number;
  /** Hypothesis label → reference speaker (the mapping with the most shared time). */
  mapping: Record<string, string>;
}

const FRAME_MS = 10;

function framesOf(
  durationMs: number,
  spans: ReadonlyArray<{ speaker: string; startMs: number; endMs: number }>,
): Array<Set<string>> {
  const frames = Array.from({ length: Math.ceil(durationMs / FRAME_MS) }, () => new Set<string>());
  for (const s of spans) {
    for (
      let f = Math.max(0, Math.floor(s.startMs / FRAME_MS));
      f < Math.min(frames.length, Math.ceil(s.endMs / FRAME_MS));
      f++
    )
      frames[f].add(s.speaker);
  }
  return frames;
}

/** The one-to-one mapping of hypothesis to reference labels with the most shared frames. */
function bestMapping(shared: Map<string, Map<string, number>>, hyps: string[], refs: string[]): Record<string, string> {
  let best: Record<string, string> = {};
  let bestTotal = -1;
  const walk = (i: number, used: Set<string>, acc: Record<string, string>, total: number): void => {
    if (i === hyps.length) {
      if (total > bestTotal) {
        bestTotal = total;
        best = { ...acc };
      }
      return;
    }
    walk(i + 1, used, acc, total);
    for (const r of refs) {
      if (used.has(r)) continue;
      used.add(r);
      acc[hyps[i]] = r;
      walk(i + 1, used, acc, total + (shared.get(hyps[i])?.get(r) ?? 0));
      delete acc[hyps[i]];
      used.delete(r);
    }
  };
  walk(0, new Set(), {}, 0);
  return best;
}

export function diarizationError(
  durationMs: number,
  ref: readonly RefTurn[],
  hyp: readonly HypTurn[],
  collarMs = 250,
): DiarizationScore {
  const refFrames = framesOf(durationMs, ref);
  const hypFrames = framesOf(durationMs, hyp);
  const scored = refFrames.map(() => true);
  for (const t of ref) {
    for (const edge of [t.startMs, t.endMs]) {
      for (
        let f = Math.max(0, Math.floor((edge - collarMs) / FRAME_MS));
        f < Math.min(scored.length, Math.ceil((edge + collarMs) / FRAME_MS));
        f++
      )
        scored[f] = false;
    }
  }
  const shared = new Map<string, Map<string, number>>();
  refFrames.forEach((rs, f) => {
    if (!scored[f]) return;
    for (const h of hypFrames[f]) {
      const row = shared.get(h) ?? new Map<string, number>();
      for (const r of rs) row.set(r, (row.get(r) ?? 0) + 1);
      shared.set(h, row);
    }
  });
  const mapping = bestMapping(shared, [...new Set(hyp.map((h) => h.speaker))], [...new Set(ref.map((r) => r.speaker))]);
  let total = 0;
  let missed = 0;
  let falseAlarm = 0;
  let confusion = 0;
  refFrames.forEach((rs, f) => {
    if (!scored[f]) return;
    const hs = hypFrames[f];
    const nRef = rs.size;
    const nHyp = hs.size;
    let correct = 0;
    for (const h of hs) if (mapping[h] !== undefined && rs.has(mapping[h])) correct++;
    total += nRef;
    missed += Math.max(0, nRef - nHyp);
    falseAlarm += Math.max(0, nHyp - nRef);
    confusion += Math.min(nRef, nHyp) - correct;
  });
  const share = (n: number): number => (total ? n / total : 0);
  return {
    der: share(missed + falseAlarm + confusion),
    missed: share(missed),
    falseAlarm: share(falseAlarm),
    confusion: share(confusion),
    mapping,
  };
}

/** Per reference turn: ms to the nearest start of a hypothesis turn mapped to its speaker (Infinity: none). */
export function turnStartErrors(
  ref: readonly RefTurn[],
  hyp: readonly HypTurn[],
  mapping: Record<string, string>,
): number[] {
  return ref.map((t) => {
    let best = Number.POSITIVE_INFINITY;
    for (const h of hyp) if (mapping[h.speaker] === t.speaker) best = Math.min(best, Math.abs(h.startMs - t.startMs));
    return best;
  });
}
