/**
 * Production engines over any OpenAI-compatible server: Whisper-style transcription with
 * keyterms as the prompt, and a chat model writing the digest as JSON whose citations are
 * checked against the real segments before anything is kept.
 */
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { assembleDigest, type Digest, type DigestInput, suggestDigestTitle } from '../domain/digest';
import { DigestCheckError, digestPrompt, parseModelDigest } from '../domain/digest-json';
import type { AsrEngine, AsrInput, AsrResult, AsrWord } from './asr';
import type { DigestEngine } from './digest';
import { EngineError } from './engine-error';

export interface OpenAiOptions {
  /** Server root, e.g. https://api.openai.com (a trailing /v1 is tolerated). */
  baseUrl: string;
  apiKey?: string;
  model: string;
  timeoutMs?: number;
}

export class OpenAiAsr implements AsrEngine {
  constructor(private readonly opts: OpenAiOptions) {}

  async transcribe(input: AsrInput): Promise<AsrResult> {
    const bytes = await fs.readFile(input.wavPath);
    const form = new FormData();
    form.append('file', new Blob([bytes], { type: mimeOf(input.wavPath) }), path.basename(input.wavPath));
    form.append('model', this.opts.model);
    form.append('response_format', 'verbose_json');
    form.append('timestamp_granularities[]', 'word');
    form.append('timestamp_granularities[]', 'segment');
    if (input.keyterms.length) form.append('prompt', input.keyterms.join(', '));
    if (input.language) form.append('language', input.language.slice(0, 2).toLowerCase());
    const res = await call(this.opts, '/v1/audio/transcriptions', { body: form }, 'TRANSCRIBE_FAILED');
    if (!res.ok) {
      const detail = await errorText(res);
      // Whisper servers answer 400 for a file they cannot decode; that is the audio, not us.
      const corrupt = res.status === 400 && /decod|corrupt|invalid (?:file|audio|data)|file format|unsupported (?:file|audio|format|media)|could not process/i.test(detail);
      throw new EngineError(corrupt ? 'AUDIO_CORRUPT' : 'TRANSCRIBE_FAILED', `transcription server answered ${res.status}: ${detail}`);
    }
    const body = (await res.json().catch(() => null)) as VerboseJson | null;
    if (!body) throw new EngineError('TRANSCRIBE_FAILED', 'transcription server answered no JSON');
    const words = wordsOf(body);
    if (words.length === 0) throw new EngineError('NO_SPEECH', 'the transcription has no words');
    return { language: languageCode(body.language, input.language), words };
  }
}

export class OpenAiDigest implements DigestEngine {
  constructor(private readonly opts: OpenAiOptions) {}

  async generate(input: DigestInput): Promise<Digest> {
    const payload = { model: this.opts.model, temperature: 0.2, response_format: { type: 'json_object' }, messages: digestPrompt(input) };
    const res = await call(
      this.opts,
      '/v1/chat/completions',
      { body: JSON.stringify(payload), headers: { 'content-type': 'application/json' } },
      'GENERATE_FAILED',
    );
    if (!res.ok) throw new EngineError('GENERATE_FAILED', `chat server answered ${res.status}: ${await errorText(res)}`);
    const body = (await res.json().catch(() => null)) as { choices?: Array<{ message?: { content?: string | null } }> } | null;
    const content = body?.choices?.[0]?.message?.content;
    if (typeof content !== 'string') throw new EngineError('GENERATE_FAILED', 'chat server answered without message content');
    try {
      const parsed = parseModelDigest(content, input);
      const title = parsed.title || suggestDigestTitle(input);
      return assembleDigest(input.kind, input.language, title, parsed.content);
    } catch (err) {
      if (err instanceof DigestCheckError) throw new EngineError('GENERATE_FAILED', err.message, { cause: err });
      throw err;
    }
  }
}

interface VerboseJson {
  language?: string;
  text?: string;
  words?: Array<{ word?: string; start?: number; end?: number }>;
  segments?: Array<{ start?: number; end?: number; text?: string; no_speech_prob?: number }>;
}

/**
 * Words with times. Whisper's word list has no punctuation, its segments do; tokens of the
 * segment text are laid back over matching words so sentences and questions keep their marks.
 * A server that gives segments only gets words spread evenly over each segment.
 */
function wordsOf(body: VerboseJson): AsrWord[] {
  const segments = (body.segments ?? []).filter((s) => typeof s.text === 'string' && s.text.trim() !== '' && (s.no_speech_prob ?? 0) < 0.95);
  const raw = (body.words ?? []).filter((w) => typeof w.word === 'string' && w.word.trim() !== '' && Number.isFinite(w.start) && Number.isFinite(w.end));
  if (raw.length === 0) return segments.flatMap(spreadSegment);
  const words: AsrWord[] = raw.map((w) => ({ word: (w.word as string).trim(), startMs: Math.round((w.start as number) * 1000), endMs: Math.round((w.end as number) * 1000) }));
  const tokens = segments.flatMap((s) => (s.text as string).trim().split(/\s+/));
  let t = 0;
  for (const w of words) {
    // Look a few tokens ahead only: enough to step over a hyphenation split, never to drift.
    for (let k = t; k < Math.min(tokens.length, t + 3); k++) {
      if (bare(tokens[k]) === bare(w.word)) {
        w.word = tokens[k];
        t = k + 1;
        break;
      }
    }
  }
  return words;
}

function spreadSegment(s: { start?: number; end?: number; text?: string }): AsrWord[] {
  const tokens = (s.text as string).trim().split(/\s+/);
  const start = (s.start ?? 0) * 1000;
  const step = (((s.end ?? s.start ?? 0) * 1000 - start) / tokens.length) | 0;
  return tokens.map((word, i) => ({ word, startMs: Math.round(start + i * step), endMs: Math.round(start + (i + 1) * step) }));
}

const LANGUAGE_NAMES: Record<string, string> = { english: 'en', persian: 'fa', farsi: 'fa', arabic: 'ar', german: 'de', french: 'fr', spanish: 'es', turkish: 'tr' };

/** verbose_json names the language in English ("english"); the contract wants a code. */
function languageCode(name: string | undefined, hint: string | undefined): string {
  const lower = (name ?? '').toLowerCase();
  if (LANGUAGE_NAMES[lower]) return LANGUAGE_NAMES[lower];
  if (/^[a-z]{2}(?:-|$)/.test(lower)) return lower.slice(0, 2);
  return hint?.slice(0, 2).toLowerCase() ?? 'en';
}

async function call(opts: OpenAiOptions, route: string, init: { body: FormData | string; headers?: Record<string, string> }, code: 'TRANSCRIBE_FAILED' | 'GENERATE_FAILED'): Promise<Response> {
  const url = `${opts.baseUrl.replace(/\/+$/, '').replace(/\/v1$/, '')}${route}`;
  const headers: Record<string, string> = { ...init.headers };
  if (opts.apiKey) headers.authorization = `Bearer ${opts.apiKey}`;
  try {
    return await fetch(url, { method: 'POST', body: init.body, headers, signal: AbortSignal.timeout(opts.timeoutMs ?? 600000) });
  } catch (err) {
    throw new EngineError(code, `cannot reach ${url}: ${(err as Error).message}`, { cause: err });
  }
}

async function errorText(res: Response): Promise<string> {
  const text = await res.text().catch(() => '');
  try {
    const json = JSON.parse(text) as { error?: { message?: string } | string };
    const message = typeof json.error === 'string' ? json.error : json.error?.message;
    if (message) return message.slice(0, 300);
  } catch {
    // not JSON: fall through to the raw text
  }
  return text.slice(0, 300) || res.statusText;
}

function bare(token: string): string {
  return token.toLowerCase().replace(/[^\p{L}\p{N}]+/gu, '');
}

function mimeOf(file: string): string {
  const ext = path.extname(file).toLowerCase();
  const types: Record<string, string> = { '.wav': 'audio/wav', '.mp3': 'audio/mpeg', '.m4a': 'audio/mp4', '.mp4': 'video/mp4', '.ogg': 'audio/ogg', '.webm': 'audio/webm', '.flac': 'audio/flac' };
  return types[ext] ?? 'application/octet-stream';
}
