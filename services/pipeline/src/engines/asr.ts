/**
 * Speech to text. `AsrEngine` is the seam the pipeline depends on; `PocketsphinxAsr` is the
 * offline default that runs the Debian pocketsphinx binary for real.
 */
import { execFile } from 'node:child_process';
import { promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { promisify } from 'node:util';
import { planChunks, type Chunk, DEFAULT_CHUNK_RULES } from '../domain/chunk-plan';
import { correctKeyterms } from '../domain/keyterms';
import { cleanDecoderWord, type TimedWord } from '../domain/turns';
import { withCanonicalWav } from './audio';
import type { DecoderSlots } from './decoder-slots';
import { EngineError } from './engine-error';
import { energyOf, looksLikeRandomBytes } from './meeting-frames';
import { type PcmFile, SAMPLE_RATE, wavHeader } from './pcm-file';
import { HOP_MS } from './voice-features';

const run = promisify(execFile);

export interface AsrInput {
  /** Any audio or video file ffmpeg reads; a 16 kHz mono wav avoids one conversion. */
  wavPath: string;
  /** The meeting's vocabulary, in priority order. */
  keyterms: string[];
  /** BCP 47 hint such as `en`; absent means "detect or assume the engine's default". */
  language?: string;
  /** Where an engine that works in pieces keeps finished ones, so a retry redoes only the rest. */
  checkpoint?: PieceCheckpoint;
}

/** One piece's recognition as kept between tries of a meeting. */
export interface AsrPiece {
  /** The language the recognizer named for the piece, if any. */
  language: string | null;
  words: AsrWord[];
}

export interface PieceCheckpoint {
  get(key: string): Promise<AsrPiece | null>;
  put(key: string, value: AsrPiece): Promise<void>;
}

export type AsrWord = TimedWord;

export interface AsrResult {
  language: string;
  words: AsrWord[];
}

export interface AsrEngine {
  /** Throws EngineError: AUDIO_CORRUPT, NO_SPEECH or TRANSCRIBE_FAILED. */
  transcribe(input: AsrInput): Promise<AsrResult>;
}

export interface PocketsphinxOptions {
  binary: string;
  modelDir: string;
  /** Decoder processes planned for one meeting (its audio is cut for that many); the default uses every core. */
  parallel: number;
  /**
   * Decoder processes shared with the process's other transcriptions: every chunk waits for one of
   * these slots, and a meeting may then run as many chunks at once as there are slots. Without
   * slots a meeting runs `parallel` at once.
   */
  slots?: DecoderSlots;
  /**
   * Extra search settings for pocketsphinx; none: pocketsphinx's own defaults (-maxhmmpf 30000,
   * -topn 4, fwdflat and bestpath on). Issue 31: never narrower than the defaults while the time
   * budget (RTF 0.5) allows. The narrowed search used before (-maxhmmpf 7000 -topn 4 -fwdflat no,
   * chosen on the bench's meetings and 12 others of the same voices) was measured on a held-out
   * set the choice never saw (tests/bench/asr-dev.ts --set asr-held; docs/decisions.md).
   */
  decoderArgs: string[];
  /** Loudest frame below this (dBFS) means the file holds nothing audible. */
  silenceDb: number;
  tmpDir: string;
}

export const DEFAULT_POCKETSPHINX: PocketsphinxOptions = {
  binary: 'pocketsphinx_continuous',
  modelDir: '/usr/share/pocketsphinx/model/en-us',
  parallel: Math.max(1, os.cpus().length),
  decoderArgs: [],
  silenceDb: -55,
  tmpDir: os.tmpdir(),
};

// A word line of `-time yes`: token, start s, end s, posterior.
const WORD_LINE = /^(\S+) (\d+(?:\.\d+)?) (\d+(?:\.\d+)?) (-?\d+(?:\.\d+)?(?:e[-+]?\d+)?)$/;

export class PocketsphinxAsr implements AsrEngine {
  private readonly opts: PocketsphinxOptions;

  constructor(options: Partial<PocketsphinxOptions> = {}) {
    this.opts = { ...DEFAULT_POCKETSPHINX, ...options };
  }

  async transcribe(input: AsrInput): Promise<AsrResult> {
    if (input.language && !/^en\b/i.test(input.language)) {
      throw new EngineError('TRANSCRIBE_FAILED', `pocketsphinx has no model for language ${input.language}`);
    }
    const work = await fs.mkdtemp(path.join(this.opts.tmpDir, 'mm-asr-'));
    try {
      return await withCanonicalWav(input.wavPath, work, async (pcm) => {
        if (await looksLikeRandomBytes(pcm)) {
          throw new EngineError('AUDIO_CORRUPT', 'the audio decodes to uniform full-scale noise: the file is damaged');
        }
        const energy = await energyOf(pcm);
        if (energy.length === 0 || maxOf(energy) < this.opts.silenceDb) {
          throw new EngineError('NO_SPEECH', 'the audio is silent');
        }
        const chunks = planChunks(energy, HOP_MS, { ...DEFAULT_CHUNK_RULES, parallel: this.opts.parallel });
        const slots = this.opts.slots;
        let failed = false;
        const decodeOne = async (chunk: Chunk, i: number): Promise<AsrWord[]> => {
          // A chunk that waited for a slot while another chunk of the meeting failed is not decoded.
          if (failed) return [];
          try {
            return await this.decodeChunk(pcm, chunk, path.join(work, `chunk-${i}.wav`));
          } catch (err) {
            failed = true;
            throw err;
          }
        };
        const decode = slots ? (chunk: Chunk, i: number) => slots.run(() => decodeOne(chunk, i)) : decodeOne;
        const words = (await mapLimit(chunks, slots ? slots.size : this.opts.parallel, decode)).flat();
        if (words.length === 0) throw new EngineError('NO_SPEECH', 'the decoder found no words in the audio');
        return { language: 'en', words: correctKeyterms(words, input.keyterms) };
      });
    } finally {
      await fs.rm(work, { recursive: true, force: true });
    }
  }

  /** Copies the chunk's samples into a wav of its own (a few MB: chunks are at most 3 minutes) and decodes it. */
  private async decodeChunk(pcm: PcmFile, chunk: Chunk, file: string): Promise<AsrWord[]> {
    const bytes = await pcm.readBytes(
      Math.round((chunk.startMs / 1000) * SAMPLE_RATE),
      Math.round((chunk.endMs / 1000) * SAMPLE_RATE),
    );
    await fs.writeFile(file, Buffer.concat([wavHeader(bytes.length), bytes]));
    const seconds = bytes.length / 2 / SAMPLE_RATE;
    const args = [
      '-infile',
      file,
      '-time',
      'yes',
      '-hmm',
      path.join(this.opts.modelDir, 'en-us'),
      '-lm',
      path.join(this.opts.modelDir, 'en-us.lm.bin'),
      '-dict',
      path.join(this.opts.modelDir, 'cmudict-en-us.dict'),
      '-logfn',
      `${file}.log`,
      ...this.opts.decoderArgs,
    ];
    let stdout: string;
    try {
      // Generous: decoding runs near 0.2x real time; ten times the audio means it is stuck.
      ({ stdout } = await run(this.opts.binary, args, {
        maxBuffer: 64 << 20,
        timeout: Math.round(Math.max(60000, seconds * 10000)),
      }));
    } catch (err) {
      const log = await fs.readFile(`${file}.log`, 'utf8').catch(() => '');
      throw new EngineError('TRANSCRIBE_FAILED', `pocketsphinx failed: ${lastError(log) ?? (err as Error).message}`, {
        cause: err,
      });
    } finally {
      // A 300-minute meeting would otherwise keep another 576 MB of chunks on disk until the end.
      await fs.rm(file, { force: true });
    }
    return parseWordTimes(stdout, chunk.startMs);
  }
}

/** Parses `pocketsphinx_continuous -time yes` output into words, shifted by `offsetMs`. */
export function parseWordTimes(stdout: string, offsetMs = 0): AsrWord[] {
  const words: AsrWord[] = [];
  for (const line of stdout.split('\n')) {
    const m = WORD_LINE.exec(line.trim());
    if (!m) continue;
    const word = cleanDecoderWord(m[1]);
    if (!word) continue;
    // The end column is the last frame the word covers; the word lasts through that frame.
    words.push({
      word,
      startMs: Math.round(Number(m[2]) * 1000) + offsetMs,
      endMs: Math.round(Number(m[3]) * 1000) + HOP_MS + offsetMs,
      confidence: Math.max(0, Math.min(1, Number(m[4]))),
    });
  }
  return words;
}

function lastError(log: string): string | null {
  const lines = log.split('\n').filter((l) => l.startsWith('ERROR') || l.startsWith('FATAL'));
  return lines.length ? lines[lines.length - 1] : null;
}

function maxOf(values: Float32Array): number {
  let max = Number.NEGATIVE_INFINITY;
  for (const v of values) if (v > max) max = v;
  return max;
}

/**
 * Runs `fn` over `items` with at most `limit` calls in flight, keeping result order. After a
 * failure nothing new starts, and it waits for running calls so the caller can clean up.
 */
export async function mapLimit<T, R>(
  items: readonly T[],
  limit: number,
  fn: (item: T, index: number) => Promise<R>,
): Promise<R[]> {
  const out: R[] = new Array(items.length);
  let next = 0;
  let failure: { err: unknown } | null = null;
  const worker = async (): Promise<void> => {
    while (next < items.length && !failure) {
      const i = next++;
      try {
        out[i] = await fn(items[i], i);
      } catch (err) {
        failure ??= { err };
      }
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(limit, items.length)) }, worker));
  if (failure) throw (failure as { err: unknown }).err;
  return out;
}
