/**
 * Meetings of real recorded human voices, assembled at run time from utterances Debian ships
 * (deploy/install.sh installs the packages): nothing large is committed, and the same seed gives
 * the same meeting byte for byte.
 *
 * Speakers (each a different person):
 * - `reader`: a LibriVox reader of Sense and Sensibility (pocketsphinx-testdata, references).
 * - `allison`: Allison Smith's telephone prompts (asterisk-core-sounds-en-wav, 8 kHz, references
 *   in core-sounds-en.txt).
 * - `cards`: the speaker of pocketsphinx-testdata's card-name utterances (references).
 * - `dhd`: the speaker of pocketsphinx-testdata's goforward / numbers / tidigits utterances
 *   (references where the package has them).
 */
import { execFile } from 'node:child_process';
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { promisify } from 'node:util';
import { gunzipSync } from 'node:zlib';
import { readPcm16k, SAMPLE_RATE, writeWav16k } from '../../../services/pipeline/src/engines/audio';
import { seededRandom } from '../../support/seeded-random';

const run = promisify(execFile);

export type RealSpeaker = 'reader' | 'allison' | 'cards' | 'dhd';

export interface Utterance {
  speaker: RealSpeaker;
  file: string;
  /** Headerless 16 kHz s16le. */
  raw?: boolean;
  /** Lower-case words; null when the package has no reference for it. */
  reference: string | null;
}

export interface PlacedTurn {
  speaker: RealSpeaker;
  reference: string | null;
  startMs: number;
  endMs: number;
}

export interface RealMeeting {
  path: string;
  durationMs: number;
  turns: PlacedTurn[];
}

const PS = '/usr/share/pocketsphinx/test/data';
const ALLISON = '/usr/share/asterisk/sounds/en_US_f_Allison';
const ALLISON_TEXT = '/usr/share/doc/asterisk-core-sounds-en/core-sounds-en.txt.gz';

/** Lower case, hyphens as spaces, nothing but letters, apostrophes and single spaces. */
export function normalizeWords(text: string): string {
  return text
    .toLowerCase()
    .replace(/-/g, ' ')
    .replace(/[^a-z' ]+/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
}

async function pocketsphinxUtterances(): Promise<Utterance[]> {
  const out: Utterance[] = [];
  const libri = await fs.readFile(path.join(PS, 'librivox/transcription'), 'utf8');
  for (const line of libri.split('\n')) {
    const m = /^<s> (.*) <\/s> \((\S+)\)$/.exec(line.trim());
    if (m)
      out.push({ speaker: 'reader', file: path.join(PS, 'librivox', `${m[2]}.wav`), reference: normalizeWords(m[1]) });
  }
  const cards = await fs.readFile(path.join(PS, 'cards/cards.transcription'), 'utf8');
  for (const line of cards.split('\n')) {
    const m = /^<s> (.*?)\s*<\/s> \((\S+)\)$/.exec(line.trim());
    if (m) out.push({ speaker: 'cards', file: path.join(PS, 'cards', `${m[2]}.wav`), reference: normalizeWords(m[1]) });
  }
  out.push(
    { speaker: 'dhd', file: path.join(PS, 'goforward.raw'), raw: true, reference: 'go forward ten meters' },
    { speaker: 'dhd', file: path.join(PS, 'tidigits/dhd.2934z.raw'), raw: true, reference: 'two nine three four zero' },
    { speaker: 'dhd', file: path.join(PS, 'numbers.raw'), raw: true, reference: null },
    { speaker: 'dhd', file: path.join(PS, 'something.raw'), raw: true, reference: null },
  );
  return out;
}

/** Allison's prompts with a plain-words reference (no digits, tones or trailing "..."). */
async function allisonUtterances(): Promise<Utterance[]> {
  const text = gunzipSync(await fs.readFile(ALLISON_TEXT)).toString('utf8');
  const out: Utterance[] = [];
  for (const line of text.split('\n')) {
    const m = /^([a-z0-9-]+): (.+)$/.exec(line.trim());
    if (!m || /[0-9[\]]|\.\.\./.test(m[2])) continue;
    const file = path.join(ALLISON, `${m[1]}.wav`);
    out.push({ speaker: 'allison', file, reference: normalizeWords(m[2]) });
  }
  const present = await Promise.all(
    out.map((u) =>
      fs.access(u.file).then(
        () => true,
        () => false,
      ),
    ),
  );
  return out.filter((_, i) => present[i]);
}

/** Every utterance of the corpus; throws with the package to install when one is missing. */
export async function realUtterances(): Promise<Utterance[]> {
  for (const [dir, pkg] of [
    [PS, 'pocketsphinx-testdata'],
    [ALLISON, 'asterisk-core-sounds-en-wav'],
  ] as const) {
    await fs.access(dir).catch(() => {
      throw new Error(`${dir} is missing: apt-get install ${pkg} (deploy/install.sh)`);
    });
  }
  return [...(await pocketsphinxUtterances()), ...(await allisonUtterances())];
}

async function readUtterance(u: Utterance, scratch: string): Promise<Float32Array> {
  if (!u.raw) return readPcm16k(u.file);
  const wav = path.join(scratch, `${path.basename(u.file)}.wav`);
  await run('sox', ['-t', 'raw', '-r', String(SAMPLE_RATE), '-e', 'signed', '-b', '16', '-c', '1', u.file, wav]);
  return readPcm16k(wav);
}

/** Trims leading and trailing stretches quieter than -40 dBFS (the packages pad some files). */
function trimQuiet(x: Float32Array): Float32Array {
  const hop = SAMPLE_RATE / 100;
  const loud = (i: number): boolean => {
    let e = 0;
    for (let j = i; j < Math.min(x.length, i + hop); j++) e += x[j] * x[j];
    return 10 * Math.log10(e / hop + 1e-12) > -40;
  };
  let from = 0;
  while (from < x.length && !loud(from)) from += hop;
  let to = x.length;
  while (to > from && !loud(to - hop)) to -= hop;
  return x.subarray(Math.max(0, from - hop * 5), Math.min(x.length, to + hop * 5));
}

function rms(x: Float32Array): number {
  let e = 0;
  for (const v of x) e += v * v;
  return Math.sqrt(e / Math.max(1, x.length));
}

export interface AssembleOptions {
  speakers: RealSpeaker[];
  seed: number;
  /** Utterances of 1 to this many seconds are used. */
  maxTurnMs: number;
  /** Allison has hundreds of prompts: at most this many of them. */
  maxPerSpeaker: number;
  /** Share of turn changes where the next speaker starts before the last one ends. */
  overlapShare: number;
  /** Background noise level, dBFS RMS. */
  noiseDb: number;
}

/**
 * Lays utterances of `speakers` on one timeline, never the same speaker twice in a row when
 * another can go: gaps of 0.2–1.2 s, `overlapShare` of changes overlapping by 0.2–0.5 s, each
 * turn's level within ±4 dB of a common one, white noise under everything.
 */
export async function assembleMeeting(
  all: readonly Utterance[],
  opts: AssembleOptions,
  outPath: string,
): Promise<RealMeeting> {
  const rnd = seededRandom(opts.seed);
  const pools = await pickPools(all, opts, rnd, path.dirname(outPath));
  const placed: Array<{ turn: PlacedTurn; audio: Float32Array }> = [];
  let cursorMs = 500;
  let last: RealSpeaker | null = null;
  for (;;) {
    const open = opts.speakers.filter((s) => (pools.get(s)?.length ?? 0) > 0);
    if (open.length === 0) break;
    const others = open.filter((s) => s !== last);
    const choice = others.length ? others : open;
    // Speakers with more left speak more often, so no one is left with a monologue at the end.
    const weights = choice.map((s) => pools.get(s)!.length);
    let pick = rnd() * weights.reduce((a, b) => a + b, 0);
    let speaker = choice[0];
    for (let i = 0; i < choice.length; i++) {
      pick -= weights[i];
      if (pick <= 0) {
        speaker = choice[i];
        break;
      }
    }
    const { u, audio } = pools.get(speaker)!.shift()!;
    const ms = Math.round((audio.length / SAMPLE_RATE) * 1000);
    let startMs = cursorMs;
    if (last && last !== speaker && rnd() < opts.overlapShare) startMs -= 200 + Math.round(rnd() * 300);
    else startMs += 200 + Math.round(rnd() * 1000);
    const gain = (0.08 / Math.max(1e-4, rms(audio))) * 10 ** (((rnd() - 0.5) * 8) / 20);
    const scaled = audio.map((v) => v * gain);
    placed.push({ turn: { speaker, reference: u.reference, startMs, endMs: startMs + ms }, audio: scaled });
    cursorMs = startMs + ms;
    last = speaker;
  }
  const durationMs = cursorMs + 700;
  const out = new Float32Array(Math.ceil((durationMs / 1000) * SAMPLE_RATE));
  const noise = 10 ** (opts.noiseDb / 20) * Math.sqrt(3);
  for (let i = 0; i < out.length; i++) out[i] = (rnd() * 2 - 1) * noise;
  for (const { turn, audio } of placed) {
    const at = Math.round((turn.startMs / 1000) * SAMPLE_RATE);
    for (let i = 0; i < audio.length && at + i < out.length; i++) out[at + i] += audio[i];
  }
  for (let i = 0; i < out.length; i++) out[i] = Math.max(-1, Math.min(1, out[i]));
  await writeWav16k(outPath, out);
  return { path: outPath, durationMs, turns: placed.map((p) => p.turn) };
}

/** Each speaker's utterances for a meeting of `opts`, in speaking order (the seeded sample). */
async function pickPools(
  all: readonly Utterance[],
  opts: AssembleOptions,
  rnd: () => number,
  scratch: string,
): Promise<Map<RealSpeaker, Array<{ u: Utterance; audio: Float32Array }>>> {
  const pools = new Map<RealSpeaker, Array<{ u: Utterance; audio: Float32Array }>>();
  for (const speaker of opts.speakers) {
    const candidates = all.filter((u) => u.speaker === speaker);
    // Allison's list is long: take a seeded sample before decoding them all.
    const order = candidates
      .map((u) => ({ u, k: rnd() }))
      .sort((a, b) => a.k - b.k)
      .map((x) => x.u);
    const pool: Array<{ u: Utterance; audio: Float32Array }> = [];
    for (const u of order) {
      if (pool.length >= opts.maxPerSpeaker) break;
      const audio = trimQuiet(await readUtterance(u, scratch));
      const ms = (audio.length / SAMPLE_RATE) * 1000;
      if (ms >= 1000 && ms <= opts.maxTurnMs) pool.push({ u, audio });
    }
    pools.set(speaker, pool);
  }
  return pools;
}

/** The files a meeting of `opts` is made of (the same seeded choice as assembleMeeting's). */
export async function utteranceFilesOf(
  all: readonly Utterance[],
  opts: AssembleOptions,
  scratch: string,
): Promise<string[]> {
  const pools = await pickPools(all, opts, seededRandom(opts.seed), scratch);
  return [...pools.values()].flatMap((pool) => pool.map((p) => p.u.file));
}
