/**
 * Speech to text on any OpenAI-compatible server (OpenAI, or a self-hosted Whisper server), for
 * meetings of any length: the meeting is cut at pauses into pieces within the server's limits,
 * each piece encoded compactly from the decoded audio on disk (never the whole meeting in
 * memory), sent with bounded concurrency, and the words joined back at their offsets. Pieces
 * already transcribed are kept (the checkpoint), so a retry of the meeting sends only the rest.
 */
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { promises as fs, openAsBlob } from 'node:fs';
import * as path from 'node:path';
import {
  type PieceRules,
  type PieceWords,
  halvePiece,
  joinPieces,
  piecePrompt,
  planPieces,
} from '../domain/asr-pieces';
import type { Chunk } from '../domain/chunk-plan';
import { AdaptiveLimit } from './adaptive-limit';
import { type AsrEngine, type AsrInput, type AsrResult, mapLimit } from './asr';
import { withCanonicalWav } from './audio';
import { EngineError } from './engine-error';
import { energyOf, looksLikeRandomBytes } from './meeting-frames';
import { requestTranscription, type Transcription, type TranscriptionClientOptions } from './openai-transcription';
import { type PcmFile, SAMPLE_RATE } from './pcm-file';
import { HOP_MS } from './voice-features';

export interface OpenAiAsrOptions extends TranscriptionClientOptions {
  /** Requests in flight at once, all meetings of the process together (OPENAI_ASR_CONCURRENCY). */
  concurrency: number;
  pieces: PieceRules;
  /** flac (lossless, about half the raw size) or opus (16 kbit/s voice, a tenth of FLAC). */
  format: 'flac' | 'opus';
  /** A piece whose loudest frame is below this (dBFS) holds nothing audible and is not sent. */
  silenceDb: number;
  /** The spoken language (ISO 639-1) when the job names none; absent: the server detects it. */
  language?: string;
  tmpDir: string;
}

/** What one transcription did, for logs and the bench. */
export interface PieceReport {
  pieces: number;
  sent: number;
  resumed: number;
  silent: number;
  maxBytes: number;
}

const ENCODE_TIMEOUT_MS = 5 * 60_000;
/** Samples handed to the encoder per write: 30 s, about 1 MB. */
const FEED_SAMPLES = 30 * SAMPLE_RATE;

export class OpenAiAsr implements AsrEngine {
  readonly limit: AdaptiveLimit;
  /** What the last transcription did (pieces sent, resumed, silent). */
  lastReport: PieceReport | null = null;

  constructor(private readonly opts: OpenAiAsrOptions) {
    this.limit = new AdaptiveLimit(opts.concurrency);
  }

  async transcribe(input: AsrInput): Promise<AsrResult> {
    const work = await fs.mkdtemp(path.join(this.opts.tmpDir, 'mm-remote-asr-'));
    try {
      return await withCanonicalWav(input.wavPath, work, (pcm) => this.transcribePcm(pcm, input, work));
    } finally {
      await fs.rm(work, { recursive: true, force: true });
    }
  }

  private async transcribePcm(pcm: PcmFile, input: AsrInput, work: string): Promise<AsrResult> {
    if (await looksLikeRandomBytes(pcm))
      throw new EngineError('AUDIO_CORRUPT', 'the audio decodes to uniform full-scale noise: the file is damaged');
    const energy = await energyOf(pcm);
    if (energy.length === 0 || loudest(energy, 0, energy.length) < this.opts.silenceDb)
      throw new EngineError('NO_SPEECH', 'the audio is silent');
    const pieces = planPieces(energy, HOP_MS, this.opts.pieces);
    const named = input.language ?? this.opts.language;
    const language = named ? named.slice(0, 2).toLowerCase() : undefined;
    const plan = createHash('sha256')
      .update(
        JSON.stringify([this.opts.model, this.opts.format, language ?? null, input.keyterms, pcm.sampleCount, pieces]),
      )
      .digest('hex')
      .slice(0, 16);
    const keyOf = (i: number) => `${plan}-${i}`;
    const report: PieceReport = { pieces: pieces.length, sent: 0, resumed: 0, silent: 0, maxBytes: 0 };
    const done: Array<{ result: Transcription; prompt?: string } | undefined> = new Array(pieces.length);
    const one = async (piece: Chunk, i: number): Promise<void> => {
      const kept = await input.checkpoint?.get(keyOf(i));
      if (kept) {
        done[i] = { result: kept };
        report.resumed++;
        return;
      }
      const first = Math.floor(piece.startMs / HOP_MS);
      if (loudest(energy, first, Math.ceil(piece.endMs / HOP_MS)) < this.opts.silenceDb) {
        done[i] = { result: { language: null, words: [] } };
        report.silent++;
        return;
      }
      // The previous piece's last words, when it is finished (always so at concurrency 1).
      const prompt = piecePrompt(input.keyterms, done[i - 1]?.result.words ?? null);
      const result = await this.sendPiece(pcm, energy, piece, i, { prompt, language }, work, report);
      done[i] = { result, prompt };
      await input.checkpoint?.put(keyOf(i), result);
    };
    await mapLimit(pieces, this.limit.max, one);
    this.lastReport = report;
    const joined: PieceWords[] = pieces.map((p, i) => ({
      ...p,
      words: done[i]!.result.words,
      prompt: done[i]!.prompt,
    }));
    const words = joinPieces(joined);
    if (words.length === 0) throw new EngineError('NO_SPEECH', 'the transcription has no words');
    return { language: language ?? mostNamed(done.map((d) => d?.result.language ?? null)) ?? 'en', words };
  }

  /**
   * Encodes a piece, sends it and returns its words timed from the piece's start. A piece that
   * encodes larger than the limit (noise FLAC cannot shrink) is halved and sent as two.
   */
  private async sendPiece(
    pcm: PcmFile,
    energy: Float32Array,
    piece: Chunk,
    i: number,
    req: { prompt?: string; language?: string },
    work: string,
    report: PieceReport,
  ): Promise<Transcription> {
    const ext = this.opts.format === 'opus' ? 'ogg' : 'flac';
    const file = path.join(work, `piece-${String(i).padStart(4, '0')}-${piece.startMs}.${ext}`);
    try {
      await encodePiece(pcm, piece, file, this.opts.format);
      const bytes = (await fs.stat(file)).size;
      if (bytes > this.opts.pieces.maxPieceBytes) {
        if (piece.endMs - piece.startMs < 2000)
          throw new EngineError('TRANSCRIBE_FAILED', `a 2-second piece encodes to ${bytes} bytes, over the limit`);
        await fs.rm(file, { force: true });
        const halves = halvePiece(piece, energy, HOP_MS);
        const first = await this.sendPiece(pcm, energy, halves[0], i, req, work, report);
        const second = await this.sendPiece(
          pcm,
          energy,
          halves[1],
          i,
          { ...req, prompt: piecePrompt([], first.words) ?? req.prompt },
          work,
          report,
        );
        const shift = halves[1].startMs - piece.startMs;
        return {
          language: first.language ?? second.language,
          words: [
            ...first.words,
            ...second.words.map((w) => ({ ...w, startMs: w.startMs + shift, endMs: w.endMs + shift })),
          ],
        };
      }
      report.sent++;
      report.maxBytes = Math.max(report.maxBytes, bytes);
      const blob = await openAsBlob(file, { type: this.opts.format === 'opus' ? 'audio/ogg' : 'audio/flac' });
      return await requestTranscription(this.opts, this.limit, { file: blob, fileName: path.basename(file), ...req });
    } finally {
      await fs.rm(file, { force: true });
    }
  }
}

/** Streams a piece's samples from the wav on disk into ffmpeg, 30 s at a time. */
async function encodePiece(pcm: PcmFile, piece: Chunk, out: string, format: 'flac' | 'opus'): Promise<void> {
  const codec =
    format === 'opus'
      ? ['-c:a', 'libopus', '-b:a', '16k', '-application', 'voip']
      : ['-c:a', 'flac', '-compression_level', '5'];
  const args = [
    '-nostdin',
    '-v',
    'error',
    '-y',
    '-f',
    's16le',
    '-ar',
    String(SAMPLE_RATE),
    '-ac',
    '1',
    '-i',
    'pipe:0',
    ...codec,
    out,
  ];
  const child = spawn('ffmpeg', args, { stdio: ['pipe', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
  const exit = new Promise<number | null>((resolve, reject) => {
    child.on('error', reject);
    child.on('close', resolve);
  });
  const timer = setTimeout(() => child.kill('SIGKILL'), ENCODE_TIMEOUT_MS);
  try {
    const from = Math.round((piece.startMs / 1000) * SAMPLE_RATE);
    const to = Math.round((piece.endMs / 1000) * SAMPLE_RATE);
    for (let at = from; at < to; at += FEED_SAMPLES) {
      const bytes = await pcm.readBytes(at, Math.min(to, at + FEED_SAMPLES));
      if (!child.stdin.write(bytes)) await new Promise((resolve) => child.stdin.once('drain', resolve));
    }
    child.stdin.end();
    const code = await exit;
    if (code !== 0)
      throw new EngineError(
        'TRANSCRIBE_FAILED',
        `ffmpeg could not encode a piece: ${stderr.trim().split('\n').pop() ?? code}`,
      );
  } catch (err) {
    child.kill('SIGKILL');
    throw err instanceof EngineError
      ? err
      : new EngineError('TRANSCRIBE_FAILED', `encoding a piece failed: ${(err as Error).message}`, { cause: err });
  } finally {
    clearTimeout(timer);
  }
}

function loudest(energy: Float32Array, from: number, to: number): number {
  let max = Number.NEGATIVE_INFINITY;
  for (let f = Math.max(0, from); f < Math.min(energy.length, to); f++) if (energy[f] > max) max = energy[f];
  return max;
}

/** The language most pieces were heard in (pieces without words name none). */
function mostNamed(languages: Array<string | null>): string | null {
  const counts = new Map<string, number>();
  for (const l of languages) if (l) counts.set(l, (counts.get(l) ?? 0) + 1);
  return [...counts.entries()].sort((a, b) => b[1] - a[1])[0]?.[0] ?? null;
}
