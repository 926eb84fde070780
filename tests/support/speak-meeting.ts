/**
 * Test meetings spoken by flite (voices slt, rms, awb: three clearly different speakers)
 * and joined with sox. Results are cached in the OS temp dir under a hash of the input, so
 * every test and benchmark that asks for the same script reuses one rendered file.
 */
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { promisify } from 'node:util';

import { wavHeader } from './media';

const run = promisify(execFile);

export type Voice = 'slt' | 'rms' | 'awb';
export type ScriptTurn = [voice: Voice, text: string];

export interface SpokenTurn {
  voice: Voice;
  text: string;
  /** First audible sample of the turn, in ms from the start of the file. */
  startMs: number;
  /** Last audible sample of the turn. */
  endMs: number;
}

export interface SpokenMeeting {
  path: string;
  turns: SpokenTurn[];
  durationMs: number;
}

export interface SpeakOptions {
  gapMs?: number;
  format?: 'wav' | 'mp3' | 'm4a';
  sampleRate?: number;
  /** Cut flite's own lead-in and tail silence, so with gapMs 0 the voices follow without a pause. */
  trim?: boolean;
}

// Bump when the rendering changes so stale cached files are never reused.
const CACHE_VERSION = 2;
const FLITE_RATE = 16000;
// About -42 dBFS: flite's own padding is digital near-silence, speech is far above it.
const AUDIBLE = 260;

const cacheDir = path.join(os.tmpdir(), 'mm-speak-meeting');

/** Speaks each turn with its flite voice and joins them with silence gaps. */
export async function speakMeeting(turns: ScriptTurn[], opts: SpeakOptions = {}): Promise<SpokenMeeting> {
  if (turns.length === 0) throw new Error('speakMeeting needs at least one turn');
  const gapMs = opts.gapMs ?? 600;
  const format = opts.format ?? 'wav';
  const sampleRate = opts.sampleRate ?? FLITE_RATE;
  const trim = opts.trim ?? false;
  const key = hashOf({ v: CACHE_VERSION, turns, gapMs, format, sampleRate, trim });
  const outPath = path.join(cacheDir, `${key}.${format}`);
  const metaPath = path.join(cacheDir, `${key}.json`);
  const cached = await readCached(outPath, metaPath);
  if (cached) return cached;

  await fs.mkdir(cacheDir, { recursive: true });
  const work = await fs.mkdtemp(path.join(cacheDir, 'work-'));
  try {
    const pieces = await renderPieces(turns, work, trim);
    const gapPath = path.join(work, 'gap.wav');
    await writeWav(gapPath, new Int16Array(Math.round((gapMs / 1000) * FLITE_RATE)), FLITE_RATE);
    const joined = path.join(work, 'joined.wav');
    const inputs = pieces.flatMap((p, i) => (i === 0 ? [p.file] : [gapPath, p.file]));
    await run('sox', [...inputs, joined]);

    const spoken: SpokenTurn[] = [];
    let offset = 0;
    pieces.forEach((p, i) => {
      if (i > 0) offset += gapMs;
      spoken.push({
        voice: turns[i][0],
        text: turns[i][1],
        startMs: Math.round(offset + p.leadMs),
        endMs: Math.round(offset + p.tailMs),
      });
      offset += p.durationMs;
    });
    const durationMs = Math.round(offset);

    const tmpOut = path.join(work, `out.${format}`);
    await encode(joined, tmpOut, format, sampleRate);
    const meta: SpokenMeeting = { path: outPath, turns: spoken, durationMs };
    // Rename last so a concurrent jest worker never sees a half-written file.
    await fs.writeFile(path.join(work, 'meta.json'), JSON.stringify(meta));
    await fs.rename(tmpOut, outPath);
    await fs.rename(path.join(work, 'meta.json'), metaPath);
    return meta;
  } finally {
    await fs.rm(work, { recursive: true, force: true });
  }
}

/** A wav of digital silence (16 kHz mono), cached like the meetings. */
export async function silence(seconds: number): Promise<string> {
  await fs.mkdir(cacheDir, { recursive: true });
  const out = path.join(cacheDir, `silence-${seconds}s-v${CACHE_VERSION}.wav`);
  if (await exists(out)) return out;
  const tmp = `${out}.${process.pid}.${Date.now()}.tmp`;
  await writeWav(tmp, new Int16Array(Math.round(seconds * FLITE_RATE)), FLITE_RATE);
  await fs.rename(tmp, out);
  return out;
}

/**
 * About 30 s of a three-person standup. It carries summary-worthy content, decision cues
 * ("we decided", "we agreed") and action-item cues ("Sara, please send", "John will fix"),
 * and never gives the same voice two turns in a row. The wording is chosen so pocketsphinx
 * gets the cue words right in context ("Sara will" came out as "cerebral").
 */
export const STANDUP_SCRIPT: ScriptTurn[] = [
  ['slt', 'Good morning everyone. Let us start the weekly planning meeting. The new release is almost ready.'],
  ['rms', 'The database migration finished yesterday. We decided to ship the release on Friday.'],
  ['awb', 'Great news. The customer survey shows that people want a faster search page.'],
  ['slt', 'Sara, please send the release notes to the team tomorrow.'],
  ['rms', 'John will fix the login problem before Thursday.'],
  ['awb', 'We agreed to review the budget next Monday. Thank you all.'],
];

const LONG_TOPICS = [
  'the mobile application',
  'the search page',
  'the billing system',
  'the customer survey',
  'the database migration',
  'the marketing plan',
  'the security review',
  'the new office',
  'the hiring process',
  'the support team',
];
const LONG_LINES: Array<(topic: string) => string> = [
  (t) => `I looked at ${t} this week and most of the work is finished.`,
  (t) => `What is the status of ${t}? Do we need more time?`,
  (t) => `We decided to move ${t} to the next quarter because the budget is limited.`,
  (t) => `Action item: Sara will write a short report about ${t} before Friday.`,
  (t) => `The numbers for ${t} look better than last month and the customers are happy.`,
  (t) => `We agreed that John will call the vendor about ${t} tomorrow morning.`,
  (t) => `I think ${t} needs a second review, the first version had too many problems.`,
  (t) => `Can we talk about ${t} in the next meeting? I need to check a few details first.`,
];
const VOICES: Voice[] = ['slt', 'rms', 'awb'];
// flite speaks about 3 words a second, its own padding included; used only to size the script.
const SECONDS_PER_WORD = 0.325;

/** A varied script long enough to last about `minutes` minutes when spoken (for benchmarks). */
export function longMeeting(minutes: number, gapMs = 600): ScriptTurn[] {
  const target = minutes * 60;
  const turns: ScriptTurn[] = [];
  let seconds = 0;
  for (let i = 0; seconds < target; i++) {
    const topic = LONG_TOPICS[(i * 3 + Math.floor(i / LONG_TOPICS.length)) % LONG_TOPICS.length];
    const text = LONG_LINES[i % LONG_LINES.length](topic);
    // Skip a voice now and then so the speaking order is not a fixed rotation.
    const voice = VOICES[(i + Math.floor(i / 7)) % VOICES.length];
    turns.push([voice, text]);
    seconds += text.split(/\s+/).length * SECONDS_PER_WORD + gapMs / 1000;
  }
  return turns;
}

interface Piece {
  file: string;
  durationMs: number;
  leadMs: number;
  tailMs: number;
}

async function renderPieces(turns: ScriptTurn[], work: string, trim: boolean): Promise<Piece[]> {
  // flite is single-threaded and quick; a small pool keeps long benchmark scripts fast.
  const pieces: Piece[] = new Array(turns.length);
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < turns.length) {
      const i = next++;
      const [voice, text] = turns[i];
      const file = path.join(work, `turn-${String(i).padStart(5, '0')}.wav`);
      await run('flite', ['-voice', voice, '-t', text, '-o', file]);
      pieces[i] = await measurePiece(file, trim);
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(os.cpus().length, 4)) }, worker));
  return pieces;
}

async function measurePiece(file: string, trim: boolean): Promise<Piece> {
  const { samples: raw, rate } = await readWav(file);
  const samples = trim ? trimmed(raw) : raw;
  if (trim) await writeWav(file, samples, rate);
  if (rate !== FLITE_RATE) throw new Error(`flite wrote ${rate} Hz, expected ${FLITE_RATE}`);
  let first = 0;
  while (first < samples.length && Math.abs(samples[first]) < AUDIBLE) first++;
  let last = samples.length - 1;
  while (last > first && Math.abs(samples[last]) < AUDIBLE) last--;
  const ms = (n: number): number => (n / rate) * 1000;
  return { file, durationMs: ms(samples.length), leadMs: ms(first), tailMs: ms(last + 1) };
}

function trimmed(samples: Int16Array): Int16Array {
  let first = 0;
  while (first < samples.length && Math.abs(samples[first]) < AUDIBLE) first++;
  let last = samples.length;
  while (last > first && Math.abs(samples[last - 1]) < AUDIBLE) last--;
  return samples.slice(first, last);
}

async function encode(wav: string, out: string, format: 'wav' | 'mp3' | 'm4a', sampleRate: number): Promise<void> {
  const codec =
    format === 'mp3'
      ? ['-c:a', 'libmp3lame', '-b:a', '64k']
      : format === 'm4a'
        ? ['-c:a', 'aac', '-b:a', '64k']
        : ['-c:a', 'pcm_s16le'];
  await run('ffmpeg', [
    '-nostdin',
    '-loglevel',
    'error',
    '-y',
    '-i',
    wav,
    '-ar',
    String(sampleRate),
    '-ac',
    '1',
    ...codec,
    out,
  ]);
}

async function readWav(file: string): Promise<{ samples: Int16Array; rate: number }> {
  const buf = await fs.readFile(file);
  let pos = 12;
  let rate = 0;
  while (pos + 8 <= buf.length) {
    const id = buf.toString('ascii', pos, pos + 4);
    const size = buf.readUInt32LE(pos + 4);
    if (id === 'fmt ') rate = buf.readUInt32LE(pos + 12);
    if (id === 'data') {
      const data = buf.subarray(pos + 8, Math.min(buf.length, pos + 8 + size));
      const samples = new Int16Array(data.length >> 1);
      for (let i = 0; i < samples.length; i++) samples[i] = data.readInt16LE(i * 2);
      return { samples, rate };
    }
    pos += 8 + size + (size & 1);
  }
  throw new Error(`no data chunk in ${file}`);
}

async function writeWav(file: string, samples: Int16Array, rate: number): Promise<void> {
  await fs.writeFile(
    file,
    Buffer.concat([
      wavHeader(samples.length * 2, rate),
      Buffer.from(samples.buffer, samples.byteOffset, samples.byteLength),
    ]),
  );
}

async function readCached(outPath: string, metaPath: string): Promise<SpokenMeeting | null> {
  if (!(await exists(outPath)) || !(await exists(metaPath))) return null;
  return JSON.parse(await fs.readFile(metaPath, 'utf8')) as SpokenMeeting;
}

async function exists(file: string): Promise<boolean> {
  return fs.access(file).then(
    () => true,
    () => false,
  );
}

function hashOf(value: unknown): string {
  return createHash('sha256').update(JSON.stringify(value)).digest('hex').slice(0, 20);
}
