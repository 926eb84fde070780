/**
 * The canonical 16 kHz mono 16-bit wav (written by `toWav16k`) read in pieces. A 300-minute
 * meeting is 576 MB of samples (1.15 GB as floats), so no engine holds it whole: each reads the
 * stretch it works on, and frame features are computed block by block.
 */
import { promises as fs } from 'node:fs';
import { EngineError } from './engine-error';

/** The one sample rate every engine works at (the pocketsphinx acoustic model's). */
export const SAMPLE_RATE = 16000;
const BYTES_PER_SAMPLE = 2;

/** Samples a block read holds at most by default: 60 s, 1.9 MB of floats. */
export const DEFAULT_BLOCK_SAMPLES = 60 * SAMPLE_RATE;

export interface WavLayout {
  /** Byte offset of the first sample. */
  dataOffset: number;
  sampleCount: number;
}

/**
 * Finds the data of a 16 kHz mono PCM s16le wav in its first bytes. ffmpeg may put a LIST
 * chunk before `data`, and writes 0 or 0xFFFFFFFF as the size when it could not seek back:
 * the file's length then gives it.
 */
export function parseWavHeader(head: Buffer, fileBytes: number): WavLayout {
  if (head.length < 12 || head.toString('ascii', 0, 4) !== 'RIFF' || head.toString('ascii', 8, 12) !== 'WAVE') {
    throw new EngineError('TRANSCRIBE_FAILED', 'the decoded audio is not a wav file');
  }
  let at = 12;
  let formatOk = false;
  while (at + 8 <= head.length) {
    const id = head.toString('ascii', at, at + 4);
    const size = head.readUInt32LE(at + 4);
    if (id === 'fmt ') {
      if (at + 24 > head.length) break;
      const pcm = head.readUInt16LE(at + 8) === 1;
      formatOk =
        pcm &&
        head.readUInt16LE(at + 10) === 1 &&
        head.readUInt32LE(at + 12) === SAMPLE_RATE &&
        head.readUInt16LE(at + 22) === 16;
    } else if (id === 'data') {
      if (!formatOk) throw new EngineError('TRANSCRIBE_FAILED', 'the decoded audio is not 16 kHz mono 16-bit PCM');
      const dataOffset = at + 8;
      const available = Math.max(0, fileBytes - dataOffset);
      const bytes = size === 0 || size === 0xffffffff ? available : Math.min(size, available);
      return { dataOffset, sampleCount: Math.floor(bytes / BYTES_PER_SAMPLE) };
    }
    at += 8 + size + (size & 1);
  }
  throw new EngineError('TRANSCRIBE_FAILED', 'the decoded audio has no data chunk in its header');
}

/** Where samples come from: a wav on disk, or (tests, benches) samples already in memory. */
export interface PcmSource {
  readonly sampleCount: number;
  /** Samples [from, to) in [-1, 1); the range is clipped to the audio. */
  read(from: number, to: number): Promise<Float32Array>;
}

/** A canonical wav on disk, read by byte ranges. Close it when done. */
export class PcmFile implements PcmSource {
  private constructor(
    private readonly handle: fs.FileHandle,
    private readonly layout: WavLayout,
  ) {}

  static async open(wavPath: string): Promise<PcmFile> {
    const handle = await fs.open(wavPath, 'r');
    try {
      const { size } = await handle.stat();
      const head = Buffer.alloc(Math.min(size, 4096));
      await handle.read(head, 0, head.length, 0);
      return new PcmFile(handle, parseWavHeader(head, size));
    } catch (err) {
      await handle.close();
      throw err;
    }
  }

  get sampleCount(): number {
    return this.layout.sampleCount;
  }

  async read(from: number, to: number): Promise<Float32Array> {
    const bytes = await this.readBytes(from, to);
    return int16ToFloat(bytes);
  }

  /** The raw little-endian samples [from, to), for copying a stretch into a file of its own. */
  async readBytes(from: number, to: number): Promise<Buffer> {
    const a = Math.max(0, Math.min(from, this.sampleCount));
    const b = Math.max(a, Math.min(to, this.sampleCount));
    const buf = Buffer.alloc((b - a) * BYTES_PER_SAMPLE);
    let done = 0;
    while (done < buf.length) {
      const { bytesRead } = await this.handle.read(
        buf,
        done,
        buf.length - done,
        this.layout.dataOffset + a * BYTES_PER_SAMPLE + done,
      );
      if (bytesRead === 0) throw new EngineError('TRANSCRIBE_FAILED', 'the decoded audio ended before its header said');
      done += bytesRead;
    }
    return buf;
  }

  async close(): Promise<void> {
    await this.handle.close();
  }
}

/** Samples already in memory behind the same interface. */
export function pcmFromSamples(samples: Float32Array): PcmSource {
  return {
    sampleCount: samples.length,
    read: async (from, to) => samples.slice(Math.max(0, from), Math.max(0, Math.min(to, samples.length))),
  };
}

/** The 44-byte header of a mono 16-bit wav (16 kHz unless told) holding `dataBytes` of samples. */
export function wavHeader(dataBytes: number, rate = SAMPLE_RATE): Buffer {
  const header = Buffer.alloc(44);
  header.write('RIFF', 0, 'ascii');
  header.writeUInt32LE(36 + dataBytes, 4);
  header.write('WAVEfmt ', 8, 'ascii');
  header.writeUInt32LE(16, 16);
  header.writeUInt16LE(1, 20);
  header.writeUInt16LE(1, 22);
  header.writeUInt32LE(rate, 24);
  header.writeUInt32LE(rate * BYTES_PER_SAMPLE, 28);
  header.writeUInt16LE(BYTES_PER_SAMPLE, 32);
  header.writeUInt16LE(16, 34);
  header.write('data', 36, 'ascii');
  header.writeUInt32LE(dataBytes, 40);
  return header;
}

export function int16ToFloat(buf: Buffer): Float32Array {
  const out = new Float32Array(buf.length >> 1);
  for (let i = 0; i < out.length; i++) out[i] = buf.readInt16LE(i * 2) / 32768;
  return out;
}
