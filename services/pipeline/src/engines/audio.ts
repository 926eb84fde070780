/**
 * Decoding and measuring with ffmpeg/ffprobe. Every engine works on one canonical form,
 * 16 kHz mono 16-bit PCM, because that is what the pocketsphinx acoustic model was trained
 * on and it keeps the voice-feature code free of format cases.
 */
import { execFile, spawn } from 'node:child_process';
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { promisify } from 'node:util';
import { MEDIA_INPUT_ARGS } from '@mm/contract';
import { EngineError } from './engine-error';
import { int16ToFloat, PcmFile, SAMPLE_RATE, wavHeader } from './pcm-file';

const run = promisify(execFile);

/**
 * Every ffmpeg/ffprobe call ends: measuring is quick whatever the length; decoding runs far
 * faster than real time, so a 300-minute meeting decodes well within these bounds.
 */
const PROBE_TIMEOUT_MS = 60_000;
const DECODE_TIMEOUT_MS = 15 * 60_000;

export { SAMPLE_RATE };

export interface AudioProbe {
  durationMs: number | null;
  /** Codec of the first audio stream, e.g. pcm_s16le, mp3, aac, opus. */
  codec: string | null;
  hasAudio: boolean;
  hasVideo: boolean;
  /** ffprobe's format name, e.g. wav, mp3, "mov,mp4,m4a,3gp,3g2,mj2". */
  formatName: string | null;
  sampleRate: number | null;
  channels: number | null;
}

interface FfprobeJson {
  format?: { duration?: string; format_name?: string };
  streams?: Array<{
    codec_type?: string;
    codec_name?: string;
    duration?: string;
    sample_rate?: string;
    channels?: number;
    disposition?: { attached_pic?: number };
  }>;
}

/** Measures a file. A file ffprobe cannot open at all is AUDIO_CORRUPT. */
export async function probe(path: string): Promise<AudioProbe> {
  let stdout: string;
  try {
    ({ stdout } = await run(
      'ffprobe',
      ['-v', 'error', '-show_format', '-show_streams', '-of', 'json', ...MEDIA_INPUT_ARGS, path],
      { maxBuffer: 8 << 20, timeout: PROBE_TIMEOUT_MS },
    ));
  } catch (err) {
    throw decodeFailure(err, 'ffprobe cannot read the file');
  }
  const json = JSON.parse(stdout || '{}') as FfprobeJson;
  const streams = json.streams ?? [];
  const audio = streams.find((s) => s.codec_type === 'audio');
  // Cover art in an mp3/m4a is a video stream to ffprobe, but nobody would call it video.
  const hasVideo = streams.some((s) => s.codec_type === 'video' && !s.disposition?.attached_pic);
  const seconds = Number(json.format?.duration ?? audio?.duration);
  return {
    durationMs: Number.isFinite(seconds) ? Math.round(seconds * 1000) : null,
    codec: audio?.codec_name ?? null,
    hasAudio: Boolean(audio),
    hasVideo,
    formatName: json.format?.format_name ?? null,
    sampleRate: audio?.sample_rate ? Number(audio.sample_rate) : null,
    channels: audio?.channels ?? null,
  };
}

/** Decodes any input (audio or video) to a 16 kHz mono 16-bit wav. Refused input is AUDIO_CORRUPT. */
export async function toWav16k(inputPath: string, outPath: string): Promise<void> {
  try {
    await run(
      'ffmpeg',
      [
        '-nostdin',
        '-v',
        'error',
        '-y',
        ...MEDIA_INPUT_ARGS,
        '-i',
        inputPath,
        '-vn',
        '-ac',
        '1',
        '-ar',
        String(SAMPLE_RATE),
        '-c:a',
        'pcm_s16le',
        '-f',
        'wav',
        outPath,
      ],
      {
        maxBuffer: 8 << 20,
        timeout: DECODE_TIMEOUT_MS,
      },
    );
  } catch (err) {
    await fs.rm(outPath, { force: true });
    throw decodeFailure(err, 'ffmpeg cannot decode the audio');
  }
}

/**
 * Decodes any input to 16 kHz mono samples in [-1, 1), all in memory: for short clips (tests,
 * benches). The pipeline reads meetings in pieces (`withCanonicalWav`). Refused input is AUDIO_CORRUPT.
 */
export async function readPcm16k(inputPath: string): Promise<Float32Array> {
  const args = [
    '-nostdin',
    '-v',
    'error',
    ...MEDIA_INPUT_ARGS,
    '-i',
    inputPath,
    '-vn',
    '-ac',
    '1',
    '-ar',
    String(SAMPLE_RATE),
    '-f',
    's16le',
    '-',
  ];
  const child = spawn('ffmpeg', args, { stdio: ['ignore', 'pipe', 'pipe'] });
  const chunks: Buffer[] = [];
  let stderr = '';
  child.stdout.on('data', (c: Buffer) => chunks.push(c));
  child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
  const timer = setTimeout(() => child.kill('SIGKILL'), DECODE_TIMEOUT_MS);
  const code = await new Promise<number | null>((resolve, reject) => {
    child.on('error', (err) => reject(decodeFailure(err, 'ffmpeg cannot run')));
    child.on('close', resolve);
  }).finally(() => clearTimeout(timer));
  // A null code means a signal ended ffmpeg (out of memory, shutdown): not the file's fault.
  if (code === null) throw new EngineError('TRANSCRIBE_FAILED', 'ffmpeg was stopped before it finished');
  if (code !== 0) throw new EngineError('AUDIO_CORRUPT', `ffmpeg cannot decode the audio: ${lastLine(stderr)}`);
  return int16ToFloat(Buffer.concat(chunks));
}

/** Writes samples in [-1, 1) as a 16 kHz mono 16-bit wav (used for decoder chunks). */
export async function writeWav16k(path: string, samples: Float32Array): Promise<void> {
  const data = Buffer.alloc(samples.length * 2);
  for (let i = 0; i < samples.length; i++) {
    const s = Math.max(-1, Math.min(1, samples[i]));
    data.writeInt16LE(Math.round(s < 0 ? s * 32768 : s * 32767), i * 2);
  }
  await fs.writeFile(path, Buffer.concat([wavHeader(data.length), data]));
}

/**
 * Opens `inputPath` for reading in pieces: as it is when it already is the canonical wav (what
 * `transcribeMeeting` hands the engines), else decoded to one in `workDir` first. Runs `fn`,
 * then closes the file and removes any decoded copy.
 */
export async function withCanonicalWav<T>(
  inputPath: string,
  workDir: string,
  fn: (pcm: PcmFile) => Promise<T>,
): Promise<T> {
  let copy: string | null = null;
  let pcm = await PcmFile.open(inputPath).catch(() => null);
  try {
    if (!pcm) {
      copy = path.join(workDir, `canonical-${process.pid}-${Date.now()}-${Math.random().toString(36).slice(2)}.wav`);
      await toWav16k(inputPath, copy);
      pcm = await PcmFile.open(copy);
    }
    return await fn(pcm);
  } finally {
    await pcm?.close();
    if (copy) await fs.rm(copy, { force: true });
  }
}

/**
 * A decoder that ran and refused the file means damaged audio (final); a decoder that could
 * not run at all, was killed or timed out is our failure, and a retry may help.
 */
function decodeFailure(err: unknown, what: string): EngineError {
  const e = err as { code?: unknown; signal?: unknown; killed?: boolean };
  const ourFault = typeof e.code === 'string' || Boolean(e.signal) || e.killed === true;
  return new EngineError(ourFault ? 'TRANSCRIBE_FAILED' : 'AUDIO_CORRUPT', `${what}: ${stderrOf(err)}`, { cause: err });
}

function stderrOf(err: unknown): string {
  const e = err as { stderr?: string; message?: string };
  return lastLine(e.stderr || e.message || String(err));
}

function lastLine(text: string): string {
  const lines = text.trim().split('\n').filter(Boolean);
  return lines[lines.length - 1] ?? 'unknown error';
}
