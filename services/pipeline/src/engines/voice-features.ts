/**
 * Frame-level voice features computed in plain TypeScript (no native DSP dependency):
 * MFCCs from a mel filterbank, frame energy, spectral flatness and an autocorrelation pitch
 * track. Frames are 25 ms long every 10 ms, the usual speech analysis grid, at 16 kHz.
 */
import { SAMPLE_RATE } from './audio';

export const HOP_MS = 10;
// 19 cepstra over 40 bands up to 7.6 kHz, not 12 over 26: the finer spectral envelope is what
// told the real-voice meetings' three men apart (docs/decisions.md, issue 15).
export const N_CEPS = 20;

/** Samples between frame starts, and samples in one frame's window. */
export const HOP = (SAMPLE_RATE * HOP_MS) / 1000;
export const WIN = 400;
const NFFT = 512;
const N_MELS = 40;
const MEL_LOW_HZ = 100;
const MEL_HIGH_HZ = 7600;

export interface FrameFeatures {
  count: number;
  /** `count` rows of N_CEPS cepstra (c0..c12), row-major. */
  mfcc: Float32Array;
  /** Frame energy in dB relative to full scale. */
  energyDb: Float32Array;
  /** Spectral flatness in [0, 1]: near 1 for white noise, low for voiced speech. */
  flatness: Float32Array;
}

/** Computes MFCC, energy and flatness for every 10 ms frame of the signal. */
export function frameFeatures(samples: Float32Array): FrameFeatures {
  const count = frameCount(samples.length);
  const mfcc = new Float32Array(count * N_CEPS);
  const energyDb = new Float32Array(count);
  const flatness = new Float32Array(count);
  const re = new Float64Array(NFFT);
  const im = new Float64Array(NFFT);
  const power = new Float64Array(NFFT / 2 + 1);
  const logMel = new Float64Array(N_MELS);
  for (let f = 0; f < count; f++) {
    const start = f * HOP;
    let energy = 0;
    re.fill(0);
    im.fill(0);
    for (let i = 0; i < WIN; i++) {
      const x = samples[start + i];
      energy += x * x;
      // Pre-emphasis flattens the speech spectral tilt so high bands count in the cepstra.
      const prev = i > 0 ? samples[start + i - 1] : x;
      re[i] = (x - 0.97 * prev) * HAMMING[i];
    }
    energyDb[f] = 10 * Math.log10(energy / WIN + 1e-10);
    fft(re, im);
    let logSum = 0;
    let linSum = 0;
    for (let k = 0; k <= NFFT / 2; k++) {
      power[k] = re[k] * re[k] + im[k] * im[k];
      if (k > 0) {
        logSum += Math.log(power[k] + 1e-12);
        linSum += power[k] + 1e-12;
      }
    }
    flatness[f] = Math.exp(logSum / (NFFT / 2)) / (linSum / (NFFT / 2));
    for (let m = 0; m < N_MELS; m++) {
      const bank = MEL_BANK[m];
      let s = 0;
      for (let j = 0; j < bank.weights.length; j++) s += bank.weights[j] * power[bank.from + j];
      logMel[m] = Math.log(s + 1e-10);
    }
    for (let c = 0; c < N_CEPS; c++) {
      let s = 0;
      for (let m = 0; m < N_MELS; m++) s += DCT[c * N_MELS + m] * logMel[m];
      mfcc[f * N_CEPS + c] = s;
    }
  }
  return { count, mfcc, energyDb, flatness };
}

const PITCH_WIN = Math.round((SAMPLE_RATE / 2) * 0.04);
const PITCH_MAX_LAG = Math.round(SAMPLE_RATE / 2 / 60);
/** Samples past a frame's start that `pitchTrack` reads for it (decimated window, longest lag, filter). */
export const PITCH_REACH = 2 * (PITCH_WIN + PITCH_MAX_LAG) + 4;

/**
 * Fundamental frequency per 10 ms frame (Hz, 0 when unvoiced or quiet), by normalized
 * autocorrelation on a 2x-decimated signal every 20 ms. Pitch separates voices that MFCC
 * means alone confuse (two male voices differ in pitch more than in timbre).
 */
export function pitchTrack(samples: Float32Array, energyDb: Float32Array, minDb: number): Float32Array {
  const out = new Float32Array(energyDb.length);
  const rate = SAMPLE_RATE / 2;
  const half = Math.floor(samples.length / 2);
  const y = new Float32Array(half);
  for (let n = 1; n < half - 1; n++)
    y[n] = 0.25 * samples[2 * n - 1] + 0.5 * samples[2 * n] + 0.25 * samples[2 * n + 1];
  const win = PITCH_WIN;
  const minLag = Math.round(rate / 400);
  const maxLag = PITCH_MAX_LAG;
  for (let f = 0; f < energyDb.length; f += 2) {
    if (energyDb[f] < minDb) continue;
    const start = Math.round((f * HOP) / 2);
    if (start + win + maxLag > half) break;
    let e0 = 0;
    for (let i = 0; i < win; i++) e0 += y[start + i] * y[start + i];
    if (e0 <= 0) continue;
    let best = 0;
    let bestLag = 0;
    const scores = new Float32Array(maxLag + 1);
    for (let lag = minLag; lag <= maxLag; lag++) {
      let num = 0;
      let e1 = 0;
      for (let i = 0; i < win; i++) {
        const b = y[start + i + lag];
        num += y[start + i] * b;
        e1 += b * b;
      }
      const r = num / Math.sqrt(e0 * e1 + 1e-12);
      scores[lag] = r;
      if (r > best) {
        best = r;
        bestLag = lag;
      }
    }
    if (best < 0.5) continue;
    // The shortest lag almost as good as the best avoids picking a pitch octave too low.
    for (let lag = minLag + 1; lag < bestLag; lag++) {
      if (scores[lag] >= 0.9 * best && scores[lag] >= scores[lag - 1] && scores[lag] >= scores[lag + 1]) {
        bestLag = lag;
        break;
      }
    }
    out[f] = rate / bestLag;
    if (f + 1 < out.length) out[f + 1] = out[f];
  }
  return out;
}

/** Frame energy in dBFS every 10 ms, without spectra (cheap enough to run before decoding). */
export function energyTrack(samples: Float32Array): Float32Array {
  const count = frameCount(samples.length);
  const out = new Float32Array(count);
  for (let f = 0; f < count; f++) {
    let e = 0;
    for (let i = f * HOP, end = f * HOP + WIN; i < end; i++) e += samples[i] * samples[i];
    out[f] = 10 * Math.log10(e / WIN + 1e-10);
  }
  return out;
}

/**
 * Where to look for arbitrary bytes played as PCM: 200 frames spread evenly over the signal
 * (sample offsets). Real recordings, even noisy ones, have quiet moments or spectral shape; a
 * damaged file whose header still parses decodes to loud, flat hiss almost everywhere.
 */
export function randomBytesProbes(sampleCount: number): number[] {
  const frames = frameCount(sampleCount);
  if (frames === 0) return [];
  const probes = Math.min(frames, 200);
  return Array.from({ length: probes }, (_, p) => Math.floor((p * (frames - 1)) / Math.max(1, probes - 1)) * HOP);
}

/** Whether one frame's window (WIN samples) is loud and spectrally flat, as hiss is. */
export function isFlatAndLoud(window: Float32Array): boolean {
  const re = new Float64Array(NFFT);
  const im = new Float64Array(NFFT);
  let energy = 0;
  for (let i = 0; i < WIN; i++) {
    energy += window[i] * window[i];
    re[i] = window[i] * HAMMING[i];
  }
  fft(re, im);
  let logSum = 0;
  let linSum = 0;
  for (let k = 1; k <= NFFT / 2; k++) {
    const pw = re[k] * re[k] + im[k] * im[k] + 1e-12;
    logSum += Math.log(pw);
    linSum += pw;
  }
  const flatness = Math.exp(logSum / (NFFT / 2)) / (linSum / (NFFT / 2));
  return 10 * Math.log10(energy / WIN + 1e-10) > -20 && flatness > 0.3;
}

/** Frames of 25 ms every 10 ms that fit in `sampleCount` samples. */
export function frameCount(sampleCount: number): number {
  return sampleCount < WIN ? 0 : 1 + Math.floor((sampleCount - WIN) / HOP);
}

/** Frame index that holds a time in ms. */
export function frameAt(ms: number): number {
  return Math.max(0, Math.round(ms / HOP_MS));
}

const HAMMING = Float64Array.from({ length: WIN }, (_, i) => 0.54 - 0.46 * Math.cos((2 * Math.PI * i) / (WIN - 1)));

const hzToMel = (hz: number): number => 2595 * Math.log10(1 + hz / 700);
const melToHz = (mel: number): number => 700 * (10 ** (mel / 2595) - 1);

const MEL_BANK: Array<{ from: number; weights: Float64Array }> = (() => {
  const lo = hzToMel(MEL_LOW_HZ);
  const hi = hzToMel(MEL_HIGH_HZ);
  const edges = Array.from(
    { length: N_MELS + 2 },
    (_, i) => (melToHz(lo + ((hi - lo) * i) / (N_MELS + 1)) * NFFT) / SAMPLE_RATE,
  );
  return Array.from({ length: N_MELS }, (_, m) => {
    const [a, b, c] = [edges[m], edges[m + 1], edges[m + 2]];
    const from = Math.ceil(a);
    const to = Math.floor(c);
    const weights = new Float64Array(Math.max(0, to - from + 1));
    for (let k = from; k <= to; k++) weights[k - from] = k <= b ? (k - a) / (b - a) : (c - k) / (c - b);
    return { from, weights };
  });
})();

const DCT = Float64Array.from({ length: N_CEPS * N_MELS }, (_, i) => {
  const c = Math.floor(i / N_MELS);
  const m = i % N_MELS;
  return Math.cos((Math.PI * c * (m + 0.5)) / N_MELS) * Math.sqrt((c === 0 ? 1 : 2) / N_MELS);
});

const BITREV = (() => {
  const bits = Math.log2(NFFT);
  return Uint16Array.from({ length: NFFT }, (_, i) => {
    let r = 0;
    for (let b = 0; b < bits; b++) r |= ((i >> b) & 1) << (bits - 1 - b);
    return r;
  });
})();

const TW_RE = Float64Array.from({ length: NFFT / 2 }, (_, k) => Math.cos((-2 * Math.PI * k) / NFFT));
const TW_IM = Float64Array.from({ length: NFFT / 2 }, (_, k) => Math.sin((-2 * Math.PI * k) / NFFT));

/** In-place iterative radix-2 FFT of length NFFT. */
function fft(re: Float64Array, im: Float64Array): void {
  for (let i = 0; i < NFFT; i++) {
    const j = BITREV[i];
    if (j > i) {
      [re[i], re[j]] = [re[j], re[i]];
      [im[i], im[j]] = [im[j], im[i]];
    }
  }
  for (let size = 2; size <= NFFT; size <<= 1) {
    const halfSize = size >> 1;
    const stride = NFFT / size;
    for (let k = 0; k < halfSize; k++) {
      const wr = TW_RE[k * stride];
      const wi = TW_IM[k * stride];
      for (let i = k; i < NFFT; i += size) {
        const j = i + halfSize;
        const tr = wr * re[j] - wi * im[j];
        const ti = wr * im[j] + wi * re[j];
        re[j] = re[i] - tr;
        im[j] = im[i] - ti;
        re[i] += tr;
        im[i] += ti;
      }
    }
  }
}
