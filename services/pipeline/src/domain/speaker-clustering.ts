/**
 * Speaker clustering over voice statistics, pure. Each segment is summarized as a diagonal
 * Gaussian over its cepstra plus a Gaussian over its log pitch; two segments are compared
 * with the symmetric Kullback-Leibler divergence. Keeping sufficient statistics (count, sum,
 * sum of squares) lets a merged cluster be compared exactly as if it were one long segment,
 * which grows more reliable as it grows.
 */

export interface VoiceStats {
  n: number;
  sum: Float64Array;
  sumSq: Float64Array;
  pitchN: number;
  pitchSum: number;
  pitchSumSq: number;
}

export interface DistanceRules {
  /** How much the pitch dimension counts next to the cepstra (0 turns it off). */
  pitchWeight: number;
  /** Variance floor of a cepstral dimension, so a steady vowel does not look infinitely sharp. */
  varFloor: number;
  /** Variance floor of log pitch (0.003 is about a 5% pitch wobble). */
  pitchVarFloor: number;
  /** Voiced frames a side needs before pitch is compared at all. */
  minPitchFrames: number;
  /**
   * Small-sample bias of the divergence: estimated from n frames it overshoots by roughly
   * sampleBias / n per side, so two short pieces of one voice look far apart. Subtracting it
   * lets one threshold serve 2-second pieces and whole-meeting clusters alike.
   */
  sampleBias: number;
}

export const DEFAULT_DISTANCE_RULES: DistanceRules = {
  pitchWeight: 1,
  varFloor: 0.05,
  pitchVarFloor: 0.003,
  minPitchFrames: 10,
  sampleBias: 200,
};

export function emptyStats(dims: number): VoiceStats {
  return { n: 0, sum: new Float64Array(dims), sumSq: new Float64Array(dims), pitchN: 0, pitchSum: 0, pitchSumSq: 0 };
}

/** Adds one frame's features (`dims` values from `offset`) and its pitch in Hz (0 = unvoiced). */
export function addFrame(stats: VoiceStats, features: ArrayLike<number>, offset: number, pitchHz: number): void {
  stats.n++;
  for (let d = 0; d < stats.sum.length; d++) {
    const x = features[offset + d];
    stats.sum[d] += x;
    stats.sumSq[d] += x * x;
  }
  if (pitchHz > 0) {
    const lp = Math.log(pitchHz);
    stats.pitchN++;
    stats.pitchSum += lp;
    stats.pitchSumSq += lp * lp;
  }
}

export function mergeStats(a: VoiceStats, b: VoiceStats): VoiceStats {
  const out = emptyStats(a.sum.length);
  out.n = a.n + b.n;
  for (let d = 0; d < a.sum.length; d++) {
    out.sum[d] = a.sum[d] + b.sum[d];
    out.sumSq[d] = a.sumSq[d] + b.sumSq[d];
  }
  out.pitchN = a.pitchN + b.pitchN;
  out.pitchSum = a.pitchSum + b.pitchSum;
  out.pitchSumSq = a.pitchSumSq + b.pitchSumSq;
  return out;
}

/**
 * Symmetric KL divergence between the two voices' Gaussians, less its small-sample bias.
 * Around 0 for one voice; flite's distinct voices measure 3.5 and more.
 */
export function voiceDistance(a: VoiceStats, b: VoiceStats, rules: DistanceRules = DEFAULT_DISTANCE_RULES): number {
  if (a.n === 0 || b.n === 0) return Number.POSITIVE_INFINITY;
  let total = -rules.sampleBias * (1 / a.n + 1 / b.n);
  for (let d = 0; d < a.sum.length; d++) {
    total += gaussKl(a.sum[d] / a.n, a.sumSq[d] / a.n, b.sum[d] / b.n, b.sumSq[d] / b.n, rules.varFloor);
  }
  if (rules.pitchWeight > 0 && a.pitchN >= rules.minPitchFrames && b.pitchN >= rules.minPitchFrames) {
    total +=
      rules.pitchWeight *
      gaussKl(
        a.pitchSum / a.pitchN,
        a.pitchSumSq / a.pitchN,
        b.pitchSum / b.pitchN,
        b.pitchSumSq / b.pitchN,
        rules.pitchVarFloor,
      );
  }
  return total;
}

function gaussKl(meanA: number, sqA: number, meanB: number, sqB: number, floor: number): number {
  const va = Math.max(sqA - meanA * meanA, floor);
  const vb = Math.max(sqB - meanB * meanB, floor);
  const dm = (meanA - meanB) ** 2;
  return 0.5 * (va / vb + vb / va - 2) + 0.5 * dm * (1 / va + 1 / vb);
}

/**
 * Agglomerative clustering: repeatedly merges the two closest clusters until the closest pair
 * is farther apart than `threshold`. Returns a cluster number per item (numbers are arbitrary;
 * name them with labelByFirstAppearance).
 */
export function clusterVoices(
  items: readonly VoiceStats[],
  threshold: number,
  rules: DistanceRules = DEFAULT_DISTANCE_RULES,
): number[] {
  const n = items.length;
  const stats: Array<VoiceStats | null> = items.slice();
  const owner = Array.from({ length: n }, (_, i) => i);
  const dist: Float64Array[] = Array.from({ length: n }, () => new Float64Array(n));
  for (let i = 0; i < n; i++) for (let j = i + 1; j < n; j++) dist[i][j] = voiceDistance(items[i], items[j], rules);
  for (;;) {
    let best = Number.POSITIVE_INFINITY;
    let bi = -1;
    let bj = -1;
    for (let i = 0; i < n; i++) {
      if (!stats[i]) continue;
      for (let j = i + 1; j < n; j++) {
        if (stats[j] && dist[i][j] < best) {
          best = dist[i][j];
          bi = i;
          bj = j;
        }
      }
    }
    if (bi < 0 || best > threshold) break;
    stats[bi] = mergeStats(stats[bi] as VoiceStats, stats[bj] as VoiceStats);
    stats[bj] = null;
    for (let k = 0; k < n; k++) if (owner[k] === bj) owner[k] = bi;
    for (let k = 0; k < n; k++) {
      if (k === bi || !stats[k]) continue;
      const d = voiceDistance(stats[bi] as VoiceStats, stats[k] as VoiceStats, rules);
      if (k < bi) dist[k][bi] = d;
      else dist[bi][k] = d;
    }
  }
  return owner;
}

/** Index of the nearest of `centers` to `item`, or -1 when there is none. */
export function nearestVoice(
  item: VoiceStats,
  centers: readonly VoiceStats[],
  rules: DistanceRules = DEFAULT_DISTANCE_RULES,
): number {
  let best = -1;
  let bestD = Number.POSITIVE_INFINITY;
  centers.forEach((c, i) => {
    const d = voiceDistance(item, c, rules);
    if (d < bestD) {
      bestD = d;
      best = i;
    }
  });
  return best;
}

/**
 * Log-likelihood of every frame of `segment` under `model`'s diagonal Gaussian (cepstra only),
 * from the two sets of sufficient statistics alone: sum over frames of log N(x; mean, var) is
 * -1/2 sum over dimensions of n log(2 pi var) + (sumSq - 2 mean sum + n mean^2) / var.
 */
export function logLikelihood(segment: VoiceStats, model: VoiceStats, varFloor: number): number {
  if (segment.n === 0) return 0;
  if (model.n === 0) return Number.NEGATIVE_INFINITY;
  let total = 0;
  for (let d = 0; d < segment.sum.length; d++) {
    const mean = model.sum[d] / model.n;
    const v = Math.max(model.sumSq[d] / model.n - mean * mean, varFloor);
    const sq = segment.sumSq[d] - 2 * mean * segment.sum[d] + segment.n * mean * mean;
    total += segment.n * Math.log(2 * Math.PI * v) + sq / v;
  }
  return -0.5 * total;
}

/**
 * `model` with its spread drawn toward `pooled`'s, dimension by dimension: variance
 * (n v + priorFrames v_pooled) / (n + priorFrames), the mean and count unchanged. A voice heard
 * for a few seconds shows only a few sounds, so its own spread is too narrow and a sound it has
 * not been heard making scores better under a voice heard at length; the less of a voice there
 * is, the more its spread is taken from the whole meeting's (a prior worth `priorFrames` frames).
 */
export function widenToward(model: VoiceStats, pooled: VoiceStats, priorFrames: number): VoiceStats {
  if (model.n === 0 || pooled.n === 0 || priorFrames <= 0) return model;
  const out = mergeStats(model, emptyStats(model.sum.length));
  for (let d = 0; d < model.sum.length; d++) {
    const mean = model.sum[d] / model.n;
    const own = model.sumSq[d] / model.n - mean * mean;
    const pooledMean = pooled.sum[d] / pooled.n;
    const wide = pooled.sumSq[d] / pooled.n - pooledMean * pooledMean;
    const v = (model.n * own + priorFrames * wide) / (model.n + priorFrames);
    out.sumSq[d] = model.n * (v + mean * mean);
  }
  return out;
}

/** The two closest of `voices` when they are nearer than `threshold` (indexes, lower first), else null. */
export function closestPair(
  voices: readonly VoiceStats[],
  threshold: number,
  rules: DistanceRules = DEFAULT_DISTANCE_RULES,
): [number, number] | null {
  let best = threshold;
  let pair: [number, number] | null = null;
  for (let i = 0; i < voices.length; i++) {
    for (let j = i + 1; j < voices.length; j++) {
      const d = voiceDistance(voices[i], voices[j], rules);
      if (d < best) {
        best = d;
        pair = [i, j];
      }
    }
  }
  return pair;
}
