/**
 * Frame-level features of a whole meeting, computed block by block from a `PcmSource`. Each block
 * carries the samples its frames' windows reach into, so the result equals what the in-memory
 * functions give on the whole signal, while memory follows the number of frames (one per 10 ms)
 * rather than of samples (160 per frame).
 */
import type { PcmSource } from './pcm-file';
import {
  energyTrack,
  frameCount,
  frameFeatures,
  type FrameFeatures,
  HOP,
  isFlatAndLoud,
  PITCH_REACH,
  pitchTrack,
  randomBytesProbes,
  WIN,
} from './voice-features';

/** Frames per block: 60 s of audio, about 2 MB of samples as floats. Even, for the pitch track. */
export const BLOCK_FRAMES = 6000;

/** Energy (dBFS) of every frame. */
export async function energyOf(pcm: PcmSource, blockFrames = BLOCK_FRAMES): Promise<Float32Array> {
  const out = new Float32Array(frameCount(pcm.sampleCount));
  for (const { first, end } of blocks(out.length, blockFrames)) {
    out.set(energyTrack(await pcm.read(first * HOP, (end - 1) * HOP + WIN)), first);
  }
  return out;
}

/** Cepstra, energy and flatness block by block: `first` is the block's first frame in the meeting. */
export async function* frameFeatureBlocks(
  pcm: PcmSource,
  blockFrames = BLOCK_FRAMES,
): AsyncGenerator<{ first: number; ff: FrameFeatures }> {
  for (const { first, end } of blocks(frameCount(pcm.sampleCount), blockFrames)) {
    yield { first, ff: frameFeatures(await pcm.read(first * HOP, (end - 1) * HOP + WIN)) };
  }
}

/**
 * Pitch of every frame whose energy reaches `minDb` (0 elsewhere). Each block starts two frames
 * early: the pitch track works on every other frame, and its decimation filter has no valid
 * first sample, so the lead keeps both the parity and the filter equal to the whole-signal run.
 */
export async function pitchOf(
  pcm: PcmSource,
  energyDb: Float32Array,
  minDb: number,
  blockFrames = BLOCK_FRAMES,
): Promise<Float32Array> {
  if (blockFrames % 2 !== 0) throw new Error('pitch blocks must hold an even number of frames');
  const out = new Float32Array(energyDb.length);
  for (const { first, end } of blocks(energyDb.length, blockFrames)) {
    const lead = first === 0 ? 0 : 2;
    const samples = await pcm.read((first - lead) * HOP, (end - 1) * HOP + PITCH_REACH);
    out.set(pitchTrack(samples, energyDb.subarray(first - lead, end), minDb).subarray(lead), first);
  }
  return out;
}

/** Whether the audio is arbitrary bytes played as PCM (a damaged file whose header still parses). */
export async function looksLikeRandomBytes(pcm: PcmSource): Promise<boolean> {
  const starts = randomBytesProbes(pcm.sampleCount);
  if (starts.length === 0) return false;
  let flatLoud = 0;
  for (const start of starts) if (isFlatAndLoud(await pcm.read(start, start + WIN))) flatLoud++;
  return flatLoud >= 0.9 * starts.length;
}

function* blocks(frames: number, blockFrames: number): Generator<{ first: number; end: number }> {
  for (let first = 0; first < frames; first += blockFrames) yield { first, end: Math.min(frames, first + blockFrames) };
}
