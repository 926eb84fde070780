import { energyOf, frameFeatureBlocks, looksLikeRandomBytes, pitchOf } from '../src/engines/meeting-frames';
import { parseWavHeader, pcmFromSamples, wavHeader } from '../src/engines/pcm-file';
import { energyTrack, frameFeatures, type FrameFeatures, N_CEPS, pitchTrack } from '../src/engines/voice-features';

/** 7.3 s of two alternating "voices" (harmonic tones at 120 and 210 Hz) with quiet gaps and noise. */
function signal(): Float32Array {
  let seed = 7;
  const noise = (): number => ((seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648 - 0.5) * 0.002;
  const out = new Float32Array(Math.round(7.3 * 16000) + 123);
  for (let i = 0; i < out.length; i++) {
    const t = i / 16000;
    const part = Math.floor(t / 0.9);
    const f0 = part % 3 === 2 ? 0 : part % 2 === 0 ? 120 : 210;
    let x = 0;
    if (f0 > 0) for (let h = 1; h <= 6; h++) x += (0.3 / h) * Math.sin(2 * Math.PI * f0 * h * t);
    out[i] = x + noise();
  }
  return out;
}

/** The blocks put back together, as one whole-signal result. */
async function joined(
  pcm: ReturnType<typeof pcmFromSamples>,
  count: number,
  blockFrames: number,
): Promise<FrameFeatures> {
  const all: FrameFeatures = {
    count,
    mfcc: new Float32Array(count * N_CEPS),
    energyDb: new Float32Array(count),
    flatness: new Float32Array(count),
  };
  let next = 0;
  for await (const { first, ff } of frameFeatureBlocks(pcm, blockFrames)) {
    expect(first).toBe(next);
    next = first + ff.count;
    all.mfcc.set(ff.mfcc, first * N_CEPS);
    all.energyDb.set(ff.energyDb, first);
    all.flatness.set(ff.flatness, first);
  }
  expect(next).toBe(count);
  return all;
}

describe('meeting features read in blocks', () => {
  const samples = signal();
  const whole = frameFeatures(samples);
  const pcm = pcmFromSamples(samples);

  it.each([50, 64, 6000])('equal the whole-signal features with blocks of %i frames', async (blockFrames) => {
    const ff = await joined(pcm, whole.count, blockFrames);
    expect(ff.mfcc).toEqual(whole.mfcc);
    expect(ff.energyDb).toEqual(whole.energyDb);
    expect(ff.flatness).toEqual(whole.flatness);
    expect(await energyOf(pcm, blockFrames)).toEqual(energyTrack(samples));
  });

  it.each([50, 64, 6000])('give the whole-signal pitch track with blocks of %i frames', async (blockFrames) => {
    const expected = pitchTrack(samples, whole.energyDb, -40);
    const voiced = expected.filter((f) => f > 0);
    expect(voiced.length).toBeGreaterThan(100);
    expect(await pitchOf(pcm, whole.energyDb, -40, blockFrames)).toEqual(expected);
  });

  it('refuses pitch blocks of an odd number of frames', async () => {
    await expect(pitchOf(pcm, whole.energyDb, -40, 51)).rejects.toThrow(/even/);
  });

  it('tells arbitrary bytes from a recording', async () => {
    let seed = 1;
    const hiss = Float32Array.from(
      { length: 32000 },
      () => ((seed = (seed * 69069 + 1) % 4294967296) / 4294967296) * 2 - 1,
    );
    expect(await looksLikeRandomBytes(pcmFromSamples(hiss))).toBe(true);
    expect(await looksLikeRandomBytes(pcm)).toBe(false);
    expect(await looksLikeRandomBytes(pcmFromSamples(new Float32Array(100)))).toBe(false);
  });
});

describe('parseWavHeader', () => {
  it('finds the data after other chunks, as ffmpeg writes them', () => {
    const list = Buffer.concat([Buffer.from('LIST'), Buffer.from([26, 0, 0, 0]), Buffer.alloc(26)]);
    const plain = wavHeader(3200);
    const head = Buffer.concat([plain.subarray(0, 36), list, plain.subarray(36)]);
    expect(parseWavHeader(head, head.length + 3200)).toEqual({ dataOffset: 44 + 34, sampleCount: 1600 });
  });

  it('takes the file length when the size was never written, and never reads past the file', () => {
    const head = wavHeader(0);
    expect(parseWavHeader(head, 44 + 1000).sampleCount).toBe(500);
    head.writeUInt32LE(0xffffffff, 40);
    expect(parseWavHeader(head, 44 + 1001).sampleCount).toBe(500);
    expect(parseWavHeader(wavHeader(9999), 44 + 10).sampleCount).toBe(5);
  });

  it('refuses anything but 16 kHz mono 16-bit PCM', () => {
    const stereo = wavHeader(100);
    stereo.writeUInt16LE(2, 22);
    expect(() => parseWavHeader(stereo, 144)).toThrow(/16 kHz mono/);
    const rate = wavHeader(100);
    rate.writeUInt32LE(44100, 24);
    expect(() => parseWavHeader(rate, 144)).toThrow(/16 kHz mono/);
    expect(() => parseWavHeader(Buffer.from('RIFF....WAVEdata'), 100)).toThrow();
    expect(() => parseWavHeader(Buffer.from('OggS'), 100)).toThrow(/not a wav/);
  });
});
