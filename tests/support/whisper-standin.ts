/**
 * A stand-in for an OpenAI-compatible `POST /v1/audio/transcriptions` server, for tests and the
 * bench. It runs pocketsphinx on what it receives (real words, real timings from real audio),
 * keeps OpenAI's documented limits (25 MB per file; flac, m4a, mp3, mp4, mpeg, mpga, oga, ogg,
 * wav, webm by file name), and can be told to answer 429 with Retry-After, 500, to stall, to
 * answer in Persian (each English word replaced by a Persian one) or with segments only.
 * Every request is logged with what was received and answered, so a test can check what a
 * client sent and join the stand-in's own per-piece transcripts.
 */
import { createHash } from 'node:crypto';
import { promises as fs } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import { PocketsphinxAsr, type AsrWord } from '../../services/pipeline/src/engines/asr';
import { persianWords } from './persian-words';

/** OpenAI's documented file limit (25 MB), as its error message counts it. */
export const OPENAI_MAX_FILE_BYTES = 26_214_400;
export const OPENAI_FORMATS = ['flac', 'm4a', 'mp3', 'mp4', 'mpeg', 'mpga', 'oga', 'ogg', 'wav', 'webm'] as const;

/** What the next requests get instead of a transcription, in order (one fault per request). */
export type StandinFault = { status: 429; retryAfterSeconds?: number } | { status: 500 } | { stall: true };

export interface StandinRequest {
  fileName: string;
  bytes: number;
  model: string | null;
  prompt: string | null;
  language: string | null;
  responseFormat: string | null;
  /** HTTP status answered (0 for a stalled request the client gave up on). */
  status: number;
  /** The words answered, in order (after the Persian mapping), for a 200. */
  words: string[];
  /** Requests being worked on (decoding or stalled) when this one arrived, this one included. */
  inFlight: number;
}

export interface StandinOptions {
  /** Answer in Persian: `language` persian and every word mapped to a Persian word. */
  persian?: boolean;
  /** verbose_json without the word list (as some self-hosted servers answer). */
  segmentsOnly?: boolean;
  /** Files whose name matches answer 500, every time (a piece that never gets through). */
  refuse?: RegExp;
  /**
   * A file heard before is answered from memory; with this, only after as long as decoding it
   * took (the bench: a second run sees a server as slow as the first, without the CPU).
   */
  replayTiming?: boolean;
}

export class WhisperStandin {
  readonly requests: StandinRequest[] = [];
  readonly options: StandinOptions;
  private readonly faults: StandinFault[] = [];
  private inFlight = 0;
  private readonly asr = new PocketsphinxAsr({ parallel: 1 });
  private readonly stalled = new Set<ServerResponse>();
  /** pocketsphinx's words per audio file content: the same piece sent again is not decoded again. */
  private readonly heard = new Map<string, { words: AsrWord[]; ms: number }>();

  private constructor(
    private readonly server: Server,
    readonly url: string,
    private readonly work: string,
    options: StandinOptions,
  ) {
    this.options = options;
  }

  /** Starts on a free port of 127.0.0.1; `url` is the server root (give it as OPENAI_BASE_URL). */
  static async start(options: StandinOptions = {}): Promise<WhisperStandin> {
    const work = await fs.mkdtemp(path.join(os.tmpdir(), 'mm-whisper-standin-'));
    let standin: WhisperStandin | null = null;
    const server = createServer((req, res) => {
      standin!.handle(req, res).catch((err: unknown) => {
        if (!res.headersSent) reply(res, 500, { error: { message: String(err), type: 'server_error' } });
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    standin = new WhisperStandin(server, `http://127.0.0.1:${(server.address() as AddressInfo).port}`, work, options);
    return standin;
  }

  /** The next requests answer these faults, one each, before transcriptions resume. */
  inject(...faults: StandinFault[]): void {
    this.faults.push(...faults);
  }

  /** Requests answered 200, in the order they were answered. */
  get transcribed(): StandinRequest[] {
    return this.requests.filter((r) => r.status === 200);
  }

  async close(): Promise<void> {
    for (const res of this.stalled) res.destroy();
    this.server.closeAllConnections();
    await new Promise((resolve) => this.server.close(resolve));
    await fs.rm(this.work, { recursive: true, force: true });
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<unknown> {
    if (req.method !== 'POST' || !/^\/v1\/audio\/transcriptions\/?$/.test(req.url ?? '')) {
      return reply(res, 404, {
        error: { message: `Unknown request URL: ${req.method} ${req.url}`, type: 'invalid_request_error' },
      });
    }
    const declared = Number(req.headers['content-length'] ?? 0);
    if (declared > OPENAI_MAX_FILE_BYTES + 64 * 1024) return tooLarge(res, declared, req);
    const body = await readBody(req, OPENAI_MAX_FILE_BYTES + 64 * 1024);
    if (!body) return tooLarge(res, declared, req);
    const form = await new Request('http://standin/', {
      method: 'POST',
      headers: { 'content-type': String(req.headers['content-type'] ?? '') },
      body: new Uint8Array(body),
    })
      .formData()
      .catch(() => null);
    const file = form?.get('file');
    if (!form || !(file instanceof File))
      return reply(res, 400, {
        error: { message: "Missing required parameter: 'file'.", type: 'invalid_request_error' },
      });
    const entry: StandinRequest = {
      fileName: file.name,
      bytes: file.size,
      model: text(form.get('model')),
      prompt: text(form.get('prompt')),
      language: text(form.get('language')),
      responseFormat: text(form.get('response_format')),
      status: 0,
      words: [],
      inFlight: ++this.inFlight,
    };
    this.requests.push(entry);
    try {
      entry.status = await this.answer(entry, file, form, res);
    } finally {
      this.inFlight--;
    }
  }

  private async answer(entry: StandinRequest, file: File, form: FormData, res: ServerResponse): Promise<number> {
    const fault = this.faults.shift();
    if (fault && 'stall' in fault) {
      // Never answers; the request ends when the client gives up (or the stand-in closes).
      this.stalled.add(res);
      await new Promise<void>((resolve) => res.on('close', resolve));
      this.stalled.delete(res);
      return 0;
    }
    if (fault?.status === 429) {
      const headers: Record<string, string> =
        fault.retryAfterSeconds === undefined ? {} : { 'retry-after': String(fault.retryAfterSeconds) };
      return reply(
        res,
        429,
        { error: { message: 'Rate limit reached for requests', type: 'requests', code: 'rate_limit_exceeded' } },
        headers,
      );
    }
    if (fault?.status === 500 || this.options.refuse?.test(file.name))
      return reply(res, 500, {
        error: { message: 'The server had an error while processing your request.', type: 'server_error' },
      });
    if (!entry.model)
      return reply(res, 400, {
        error: { message: "Missing required parameter: 'model'.", type: 'invalid_request_error' },
      });
    if (file.size > OPENAI_MAX_FILE_BYTES) return tooLarge(res, file.size);
    const ext = path.extname(file.name).slice(1).toLowerCase();
    if (!(OPENAI_FORMATS as readonly string[]).includes(ext)) {
      return reply(res, 400, {
        error: {
          message: `Invalid file format. Supported formats: ${JSON.stringify(OPENAI_FORMATS)}`,
          type: 'invalid_request_error',
        },
      });
    }
    const bytes = Buffer.from(await file.arrayBuffer());
    const hash = createHash('sha256').update(bytes).digest('hex');
    const known = this.heard.get(hash);
    if (known && this.options.replayTiming) await new Promise((resolve) => setTimeout(resolve, known.ms));
    let words = known?.words;
    if (!words) {
      const started = Date.now();
      const saved = path.join(this.work, `${hash}${path.extname(file.name)}`);
      await fs.writeFile(saved, bytes);
      try {
        words = (await this.asr.transcribe({ wavPath: saved, keyterms: [] })).words;
      } catch (err) {
        const code = (err as { code?: string }).code;
        if (code === 'AUDIO_CORRUPT')
          return reply(res, 400, {
            error: { message: 'Audio file might be corrupted or unsupported', type: 'invalid_request_error' },
          });
        if (code !== 'NO_SPEECH') throw err;
        words = [];
      } finally {
        await fs.rm(saved, { force: true });
      }
      this.heard.set(hash, { words, ms: Date.now() - started });
    }
    if (this.options.persian) words = persianWords(words);
    entry.words = words.map((w) => w.word);
    const format = entry.responseFormat ?? 'json';
    const whole = words.map((w) => w.word).join(' ');
    if (format === 'text') return reply(res, 200, whole);
    if (format !== 'verbose_json') return reply(res, 200, { text: whole });
    const granularities = form.getAll('timestamp_granularities[]').map(String);
    const wantWords = granularities.includes('word') && !this.options.segmentsOnly;
    const last = words[words.length - 1];
    return reply(res, 200, {
      task: 'transcribe',
      language: this.options.persian ? 'persian' : 'english',
      duration: last ? last.endMs / 1000 : 0,
      text: whole,
      segments: segmentsOf(words),
      ...(wantWords
        ? { words: words.map((w) => ({ word: w.word, start: w.startMs / 1000, end: w.endMs / 1000 })) }
        : {}),
    });
  }
}

/** Whisper-like segments: words grouped at pauses over 0.7 s, at most 30 s each. */
function segmentsOf(
  words: AsrWord[],
): Array<{ id: number; start: number; end: number; text: string; no_speech_prob: number }> {
  const groups: AsrWord[][] = [];
  for (const w of words) {
    const g = groups[groups.length - 1];
    if (g && w.startMs - g[g.length - 1].endMs <= 700 && w.endMs - g[0].startMs <= 30_000) g.push(w);
    else groups.push([w]);
  }
  return groups.map((g, id) => ({
    id,
    start: g[0].startMs / 1000,
    end: g[g.length - 1].endMs / 1000,
    text: ` ${g.map((w) => w.word).join(' ')}`,
    no_speech_prob: 0.01,
  }));
}

async function readBody(req: IncomingMessage, limit: number): Promise<Buffer | null> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const c of req) {
    size += (c as Buffer).length;
    if (size > limit) return null;
    chunks.push(c as Buffer);
  }
  return Buffer.concat(chunks);
}

function tooLarge(res: ServerResponse, bytes: number, req?: IncomingMessage): number {
  req?.resume();
  return reply(
    res,
    413,
    {
      error: {
        message: `Maximum content size limit (${OPENAI_MAX_FILE_BYTES}) exceeded (${bytes} bytes read)`,
        type: 'server_error',
      },
    },
    { connection: 'close' },
  );
}

function reply(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): number {
  const json = typeof body !== 'string';
  res.writeHead(status, { 'content-type': json ? 'application/json' : 'text/plain', ...headers });
  res.end(json ? JSON.stringify(body) : body);
  return status;
}

function text(v: unknown): string | null {
  return typeof v === 'string' ? v : null;
}
