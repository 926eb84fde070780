import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { wavLengthMs } from '../src/domain/sniff';

/** A RIFF/WAVE file's first bytes: a `fmt ` chunk with these fields, then `data` stating `dataSize`. */
function wav(
  f: { tag?: number; channels?: number; rate?: number; bits?: number; blockAlign?: number; byteRate?: number },
  dataSize: number,
  order: 'fmt-first' | 'data-first' = 'fmt-first',
): Buffer {
  const tag = f.tag ?? 1;
  const channels = f.channels ?? 1;
  const rate = f.rate ?? 16_000;
  const bits = f.bits ?? 16;
  const blockAlign = f.blockAlign ?? (channels * bits) / 8;
  const fmt = Buffer.alloc(16);
  fmt.writeUInt16LE(tag, 0);
  fmt.writeUInt16LE(channels, 2);
  fmt.writeUInt32LE(rate, 4);
  fmt.writeUInt32LE(f.byteRate ?? rate * blockAlign, 8);
  fmt.writeUInt16LE(blockAlign, 12);
  fmt.writeUInt16LE(bits, 14);
  const fmtChunk = Buffer.concat([Buffer.from('fmt \u0010\u0000\u0000\u0000', 'latin1'), fmt]);
  const data = Buffer.alloc(8);
  data.write('data', 0, 'latin1');
  data.writeUInt32LE(dataSize, 4);
  const chunks = order === 'fmt-first' ? [fmtChunk, data] : [data, fmtChunk];
  const riff = Buffer.alloc(12);
  riff.write('RIFF', 0, 'latin1');
  riff.writeUInt32LE(Math.min(0xffffffff, 36 + dataSize), 4);
  riff.write('WAVE', 8, 'latin1');
  return Buffer.concat([riff, ...chunks]);
}

describe('wavLengthMs: the length a plain WAV header states', () => {
  it('is the audio bytes over the byte rate, for PCM and float', () => {
    expect(wavLengthMs(wav({}, 32_000), 44 + 32_000)).toBe(1000);
    expect(wavLengthMs(wav({ channels: 2, rate: 44_100, bits: 24 }, 264_600), 44 + 264_600)).toBe(1000);
    expect(wavLengthMs(wav({ tag: 3, bits: 32, rate: 8000 }, 64_000), 44 + 64_000)).toBe(2000);
    expect(wavLengthMs(wav({ bits: 8, rate: 8000 }, 12_000), 44 + 12_000)).toBe(1500);
  });

  it('counts only the audio the file holds when it ends before its data chunk says', () => {
    expect(wavLengthMs(wav({}, 32_000), 44 + 16_000)).toBe(500);
    // Bytes after the data (another chunk) are not audio.
    expect(wavLengthMs(wav({}, 32_000), 44 + 32_000 + 5000)).toBe(1000);
  });

  it('leaves to the prober a header that is not plain, consistent or complete', () => {
    // Compressed: IMA ADPCM, mu-law, GSM.
    expect(wavLengthMs(wav({ tag: 0x11, bits: 4, blockAlign: 256, byteRate: 4055 }, 4000), 44 + 4000)).toBeNull();
    expect(wavLengthMs(wav({ tag: 7, bits: 8 }, 4000), 44 + 4000)).toBeNull();
    // Fields that disagree, or make no sense.
    expect(wavLengthMs(wav({ blockAlign: 4 }, 4000), 44 + 4000)).toBeNull();
    expect(wavLengthMs(wav({ byteRate: 1000 }, 4000), 44 + 4000)).toBeNull();
    expect(wavLengthMs(wav({ bits: 12, blockAlign: 2, byteRate: 32_000 }, 4000), 44 + 4000)).toBeNull();
    expect(wavLengthMs(wav({ tag: 3, bits: 16 }, 4000), 44 + 4000)).toBeNull();
    expect(wavLengthMs(wav({ channels: 0, blockAlign: 0, byteRate: 0 }, 4000), 44 + 4000)).toBeNull();
    expect(wavLengthMs(wav({ rate: 0 }, 4000), 44 + 4000)).toBeNull();
    // Beyond what a recorder makes (ffprobe refuses a rate past 2^31 - 1 and over 512 channels).
    expect(wavLengthMs(wav({ bits: 8, rate: 0x80000000 }, 4000), 44 + 4000)).toBeNull();
    expect(wavLengthMs(wav({ bits: 8, rate: 768_001 }, 4000), 44 + 4000)).toBeNull();
    expect(wavLengthMs(wav({ bits: 8, channels: 513, rate: 8000 }, 4000), 44 + 4000)).toBeNull();
    expect(wavLengthMs(wav({ bits: 8, channels: 65, rate: 8000 }, 4000), 44 + 4000)).toBeNull();
    expect(wavLengthMs(wav({ bits: 8, channels: 64, rate: 8000 }, 512_000), 44 + 512_000)).toBe(1000);
    // A streaming writer's placeholder sizes; data before the format; the header cut off; not WAVE.
    expect(wavLengthMs(wav({}, 0), 44 + 4000)).toBeNull();
    expect(wavLengthMs(wav({}, 0xffffffff), 44 + 4000)).toBeNull();
    expect(wavLengthMs(wav({}, 4000, 'data-first'), 44 + 4000)).toBeNull();
    expect(wavLengthMs(wav({}, 4000).subarray(0, 30), 44 + 4000)).toBeNull();
    const rf64 = wav({}, 4000);
    rf64.write('RF64', 0, 'latin1');
    expect(wavLengthMs(rf64, 44 + 4000)).toBeNull();
  });
});

describe('wavLengthMs agrees with ffprobe on real files', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'wav-length-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  const head = (file: string) => readFileSync(file).subarray(0, 4096);
  const ffprobeMs = (file: string) =>
    Math.round(
      Number(
        execFileSync('ffprobe', ['-v', 'error', '-show_entries', 'format=duration', '-of', 'csv=p=0', file], {
          encoding: 'utf8',
        }),
      ) * 1000,
    );

  it('sox writes them in every plain layout (PCM 8 to 32 bits, float, extensible, 1 to 6 channels)', () => {
    const layouts = [
      ['-r', '16000', '-c', '1', '-b', '16'],
      ['-r', '8000', '-c', '1', '-b', '8'],
      ['-r', '44100', '-c', '2', '-b', '24'],
      ['-r', '48000', '-c', '2', '-e', 'floating-point', '-b', '32'],
      ['-r', '22050', '-c', '6', '-b', '16'],
      ['-r', '16000', '-c', '1', '-b', '32'],
    ];
    for (const [i, layout] of layouts.entries()) {
      const file = path.join(dir, `plain-${i}.wav`);
      execFileSync('sox', ['-n', ...layout, file, 'synth', '2.345', 'sine', '300']);
      expect({ layout, ms: wavLengthMs(head(file), statSync(file).size) }).toEqual({ layout, ms: ffprobeMs(file) });
    }
  });

  it('recorded speech (the pocketsphinx test data) measures as ffprobe measures it', () => {
    const voices = '/usr/share/pocketsphinx/test/data/librivox';
    const files = readdirSync(voices)
      .filter((f) => f.endsWith('.wav'))
      .map((f) => path.join(voices, f));
    expect(files.length).toBeGreaterThan(0);
    for (const file of files) {
      const ms = wavLengthMs(head(file), statSync(file).size);
      expect(ms).not.toBeNull();
      expect(Math.abs(ms! - ffprobeMs(file))).toBeLessThanOrEqual(1);
    }
  });

  it('a compressed WAV (IMA ADPCM, mu-law) is left to ffprobe', () => {
    for (const encoding of ['ima-adpcm', 'u-law']) {
      const file = path.join(dir, `${encoding}.wav`);
      execFileSync('sox', ['-n', '-r', '8000', '-c', '1', '-e', encoding, file, 'synth', '1', 'sine', '300']);
      expect(wavLengthMs(head(file), statSync(file).size)).toBeNull();
    }
  });
});
