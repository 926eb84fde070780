import { spawn } from 'node:child_process';
import { open } from 'node:fs/promises';
import { MEDIA_INPUT_ARGS } from '@mm/contract';
import { BOX_HEADER_BYTES, boxEnd } from '../domain/mp4-boxes';

export interface Probe {
  durationMs: number | null;
  hasAudio: boolean;
  /** A real picture track (cover art does not count). */
  hasVideo: boolean;
  formatName: string;
}

/** The media tools' paths (`FFMPEG_PATH`, `FFPROBE_PATH`). */
export interface MediaTools {
  ffmpeg: string;
  ffprobe: string;
}

export class MediaError extends Error {
  constructor(
    readonly kind: 'unreadable' | 'incomplete' | 'unavailable',
    message: string,
  ) {
    super(message);
  }
}

function run(
  cmd: string,
  args: string[],
  timeoutMs: number,
): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => {
      if (stderr.length < 20_000) stderr += d.toString();
    });
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.on('error', (err) => {
      clearTimeout(timer);
      reject(new MediaError('unavailable', `${cmd}: ${err.message}`));
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code: code ?? -1, stdout, stderr });
    });
  });
}

const TRUNCATED =
  /moov atom not found|Invalid data found when processing input.*mov|partial file|truncat|End of file|unexpected end/i;

/** What ffprobe would say of a plain PCM WAV whose length its header states (domain/sniff's wavLengthMs). */
export function wavProbe(durationMs: number): Probe {
  return { durationMs, hasAudio: true, hasVideo: false, formatName: 'wav' };
}

/** Top-level boxes walked at most (a real file has a handful; a hostile one gets no more). */
const MAX_TOP_LEVEL_BOXES = 10_000;

/**
 * How many bytes an MP4-family file lacks of what its top-level boxes state: more than 0, it was
 * cut short (domain/mp4-boxes). 0 when whole, or when its bytes are not boxes we can follow.
 */
export async function mp4BytesMissing(path: string): Promise<number> {
  const fh = await open(path, 'r');
  try {
    const size = (await fh.stat()).size;
    const header = Buffer.alloc(BOX_HEADER_BYTES);
    let offset = 0;
    for (let n = 0; offset < size && n < MAX_TOP_LEVEL_BOXES; n++) {
      const { bytesRead } = await fh.read(header, 0, BOX_HEADER_BYTES, offset);
      const end = boxEnd(header.subarray(0, bytesRead), offset, size);
      if (end === null) return 0;
      if (end > size) return end - size;
      offset = end;
    }
    return 0;
  } finally {
    await fh.close();
  }
}

/** Measures a file with ffprobe. A cut-short MP4-family file (no moov atom) is `incomplete`. */
export async function probe(tools: MediaTools, path: string): Promise<Probe> {
  const r = await run(
    tools.ffprobe,
    ['-v', 'error', '-print_format', 'json', '-show_format', '-show_streams', ...MEDIA_INPUT_ARGS, path],
    60_000,
  );
  if (r.code !== 0)
    throw new MediaError(
      TRUNCATED.test(r.stderr) ? 'incomplete' : 'unreadable',
      r.stderr.trim().split('\n').pop() ?? 'ffprobe failed',
    );
  const info = JSON.parse(r.stdout) as {
    format?: { duration?: string; format_name?: string };
    streams?: { codec_type?: string; duration?: string; disposition?: { attached_pic?: number } }[];
  };
  const streams = info.streams ?? [];
  const audio = streams.filter((s) => s.codec_type === 'audio');
  const video = streams.filter((s) => s.codec_type === 'video' && !s.disposition?.attached_pic);
  const seconds = Number(info.format?.duration ?? audio[0]?.duration ?? NaN);
  return {
    durationMs: Number.isFinite(seconds) ? Math.round(seconds * 1000) : null,
    hasAudio: audio.length > 0,
    hasVideo: video.length > 0,
    formatName: info.format?.format_name ?? 'unknown',
  };
}

/**
 * Decodes the whole audio track once: proves it readable to the end (a file cut short fails
 * here) and measures its real length when the container does not say.
 */
export async function decodeCheck(tools: MediaTools, path: string): Promise<{ durationMs: number }> {
  // -stats: the progress lines carry `time=`, the only length a stream without one in its header
  // has (a browser's MediaRecorder WebM); -v error alone prints none.
  const r = await run(
    tools.ffmpeg,
    [
      '-nostdin',
      '-v',
      'error',
      '-stats',
      '-xerror',
      ...MEDIA_INPUT_ARGS,
      '-i',
      path,
      '-vn',
      '-map',
      '0:a:0',
      '-f',
      'null',
      '-',
    ],
    600_000,
  );
  const lastError = r.stderr
    .split(/[\r\n]+/)
    .filter((l) => l.trim() && !/^size=/.test(l))
    .pop();
  if (r.code !== 0)
    throw new MediaError(TRUNCATED.test(r.stderr) ? 'incomplete' : 'unreadable', lastError?.trim() ?? 'ffmpeg failed');
  // The last progress line has the whole length (the first ones are partial).
  const m = [...r.stderr.matchAll(/time=(\d+):(\d+):(\d+(?:\.\d+)?)/g)].pop();
  return { durationMs: m ? Math.round((Number(m[1]) * 3600 + Number(m[2]) * 60 + Number(m[3])) * 1000) : 0 };
}

/** Takes the audio out of a video into a 16 kHz mono WAV. */
export async function extractAudio(tools: MediaTools, input: string, output: string): Promise<void> {
  const r = await run(
    tools.ffmpeg,
    [
      '-nostdin',
      '-v',
      'error',
      '-y',
      ...MEDIA_INPUT_ARGS,
      '-i',
      input,
      '-vn',
      '-map',
      '0:a:0',
      '-ac',
      '1',
      '-ar',
      '16000',
      '-c:a',
      'pcm_s16le',
      '-f',
      'wav',
      output,
    ],
    900_000,
  );
  if (r.code !== 0) throw new MediaError('unreadable', r.stderr.trim().split('\n').pop() ?? 'ffmpeg failed');
}
