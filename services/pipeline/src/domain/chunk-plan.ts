/**
 * Where to cut long audio so several decoder processes can work on it at once. Cuts go in
 * the quietest stretch near each ideal boundary, so no word is cut in two and each decoder
 * sees whole utterances (its voice-activity detector then behaves as on the full file).
 */

export interface ChunkRules {
  /** Decoder processes that will run at once. */
  parallel: number;
  /** Audio shorter than this is never split: process start-up would cost more than it saves. */
  minSplitMs: number;
  /** No chunk is planned longer than this, so a long meeting still spreads evenly. */
  maxChunkMs: number;
  /** How far from an ideal boundary a cut may move to find silence. */
  searchMs: number;
  /** Width of the moving window that judges "quiet". */
  quietWindowMs: number;
}

export const DEFAULT_CHUNK_RULES: ChunkRules = {
  parallel: 2,
  minSplitMs: 20000,
  maxChunkMs: 180000,
  searchMs: 8000,
  quietWindowMs: 300,
};

export interface Chunk {
  startMs: number;
  endMs: number;
}

/** Plans chunks from per-frame energies (dB, one every `hopMs`). */
export function planChunks(
  energyDb: ArrayLike<number>,
  hopMs: number,
  rules: ChunkRules = DEFAULT_CHUNK_RULES,
): Chunk[] {
  const totalMs = energyDb.length * hopMs;
  if (totalMs < rules.minSplitMs || (rules.parallel <= 1 && totalMs <= rules.maxChunkMs))
    return [{ startMs: 0, endMs: totalMs }];
  const count = Math.max(rules.parallel, Math.ceil(totalMs / rules.maxChunkMs));
  const smooth = movingAverage(energyDb, Math.max(1, Math.round(rules.quietWindowMs / hopMs)));
  const cuts: number[] = [];
  for (let k = 1; k < count; k++) {
    const ideal = Math.round((k * energyDb.length) / count);
    const reach = Math.round(rules.searchMs / hopMs);
    const lo = Math.max(cuts.length ? cuts[cuts.length - 1] + 1 : 1, ideal - reach);
    const hi = Math.min(energyDb.length - 1, ideal + reach);
    let best = ideal;
    for (let f = lo; f <= hi; f++) {
      // Ties go to the cut nearest the ideal point, keeping chunks balanced.
      if (smooth[f] < smooth[best] || (smooth[f] === smooth[best] && Math.abs(f - ideal) < Math.abs(best - ideal)))
        best = f;
    }
    cuts.push(best);
  }
  const edges = [0, ...cuts.map((f) => f * hopMs), totalMs];
  return edges.slice(1).map((endMs, i) => ({ startMs: edges[i], endMs }));
}

function movingAverage(values: ArrayLike<number>, width: number): Float64Array {
  const out = new Float64Array(values.length);
  const half = Math.floor(width / 2);
  let sum = 0;
  let lo = 0;
  let hi = -1;
  for (let i = 0; i < values.length; i++) {
    const from = Math.max(0, i - half);
    const to = Math.min(values.length - 1, i + half);
    while (hi < to) sum += values[++hi];
    while (lo < from) sum -= values[lo++];
    out[i] = sum / (hi - lo + 1);
  }
  return out;
}
