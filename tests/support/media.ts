import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

const dir = mkdtempSync(path.join(tmpdir(), 'mm-media-'));
const cache = new Map<string, string>();

function make(name: string, args: string[]): string {
  const hit = cache.get(name);
  if (hit && existsSync(hit)) return hit;
  const out = path.join(dir, name);
  execFileSync('ffmpeg', ['-nostdin', '-v', 'error', '-y', ...args, out]);
  cache.set(name, out);
  return out;
}

/** A canonical 44-byte header of mono 16-bit PCM WAV holding `dataBytes` bytes of samples. */
export { wavHeader } from '../../services/pipeline/src/engines/pcm-file';

/** A sine tone of `seconds`, as WAV (16 kHz mono). */
export const toneWav = (seconds: number) =>
  make(`tone-${seconds}.wav`, [
    '-f',
    'lavfi',
    '-i',
    `sine=frequency=440:duration=${seconds}`,
    '-ac',
    '1',
    '-ar',
    '16000',
  ]);

/** The same tone as an MPEG-TS stream (what an HLS playlist names). */
export const toneTs = (seconds: number) =>
  make(`tone-${seconds}.ts`, ['-f', 'lavfi', '-i', `sine=frequency=440:duration=${seconds}`, '-f', 'mpegts']);

/** The same tone as AAC in an MP4 container (.m4a). */
const toneAac = (seconds: number) => [
  '-f',
  'lavfi',
  '-i',
  `sine=frequency=440:duration=${seconds}`,
  '-c:a',
  'aac',
  '-b:a',
  '64k',
];
export const toneM4a = (seconds: number) => make(`tone-${seconds}.m4a`, toneAac(seconds));

/** An MP4-family file with its end cut off. */
export function truncatedM4a(seconds = 10): string {
  const full = readFileSync(toneM4a(seconds));
  const out = path.join(dir, `cut-${seconds}.m4a`);
  writeFileSync(out, full.subarray(0, Math.floor(full.length * 0.6)));
  return out;
}

/**
 * A "fast start" MP4-family file (its index before the media, as phones and browsers write it)
 * with its end cut off: ffmpeg reads its header, then fails on a corrupt last packet.
 */
export function truncatedFastStartM4a(seconds = 10): string {
  const full = readFileSync(make(`tone-${seconds}-faststart.m4a`, [...toneAac(seconds), '-movflags', '+faststart']));
  const out = path.join(dir, `cut-${seconds}-faststart.m4a`);
  writeFileSync(out, full.subarray(0, Math.floor(full.length * 0.9)));
  return out;
}

/** A short video with a test picture and a tone. */
export const videoWithAudio = (seconds = 3) =>
  make(`video-${seconds}.mp4`, [
    '-f',
    'lavfi',
    '-i',
    `testsrc=size=160x120:rate=10:duration=${seconds}`,
    '-f',
    'lavfi',
    '-i',
    `sine=frequency=330:duration=${seconds}`,
    '-c:v',
    'libx264',
    '-preset',
    'ultrafast',
    '-pix_fmt',
    'yuv420p',
    '-c:a',
    'aac',
    '-shortest',
  ]);

/** A short video with no audio track. */
export const videoWithoutAudio = (seconds = 3) =>
  make(`silent-video-${seconds}.mp4`, [
    '-f',
    'lavfi',
    '-i',
    `testsrc=size=160x120:rate=10:duration=${seconds}`,
    '-c:v',
    'libx264',
    '-preset',
    'ultrafast',
    '-pix_fmt',
    'yuv420p',
  ]);

/** Bytes with a WAV header and garbage after it: sniffed as audio, refused by the decoder. */
export function corruptWav(): Buffer {
  const header = Buffer.alloc(44);
  header.write('RIFF', 0);
  header.writeUInt32LE(36 + 1000, 4);
  header.write('WAVE', 8);
  header.write('junk', 12);
  return Buffer.concat([header, Buffer.alloc(1000, 7)]);
}

/** A tiny, valid PDF. */
export function pdfBytes(): Buffer {
  return Buffer.from(
    '%PDF-1.4\n1 0 obj<</Type/Catalog/Pages 2 0 R>>endobj\n2 0 obj<</Type/Pages/Kids[]/Count 0>>endobj\ntrailer<</Root 1 0 R>>\n%%EOF\n',
  );
}
