/**
 * One audio file sent to an OpenAI-compatible `/v1/audio/transcriptions`, made to survive a real
 * service: a timeout per try, retries with backoff and jitter on 5xx, timeouts and network
 * errors, 429 answered by waiting its Retry-After with fewer requests in flight; and the answer
 * read from the shapes the common servers give (verbose_json with words, or segments only).
 */
import { type BackoffRules, backoffMs, retryAfterMs } from '../domain/backoff';
import type { AdaptiveLimit } from './adaptive-limit';
import type { AsrWord } from './asr';
import { EngineError } from './engine-error';
import { apiUrl, errorText } from './openai-http';

export interface TranscriptionClientOptions {
  baseUrl: string;
  apiKey?: string;
  model: string;
  /** One try's limit, in ms; a stalled request is abandoned and tried again. */
  timeoutMs: number;
  /** Tries of one file for server errors, timeouts and network errors. */
  attempts: number;
  /** Rate refusals (429) of one file borne before giving up; each is waited out. */
  rateLimitedTries: number;
  backoff: BackoffRules;
}

export interface TranscriptionRequest {
  file: Blob;
  fileName: string;
  prompt?: string;
  /** ISO 639-1 code, when the meeting's language is known. */
  language?: string;
}

export interface Transcription {
  /** The language the server names, as a code (null when it names none). */
  language: string | null;
  words: AsrWord[];
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Sends one file until it is transcribed. Throws EngineError: AUDIO_CORRUPT when the server
 * refuses the audio itself, TRANSCRIBE_FAILED when tries run out or the server refuses us
 * (a bad key, an unknown model: no retry helps).
 */
export async function requestTranscription(
  opts: TranscriptionClientOptions,
  limit: AdaptiveLimit,
  req: TranscriptionRequest,
): Promise<Transcription> {
  let failures = 0;
  let refusals = 0;
  for (;;) {
    const outcome = await limit.run(() => tryOnce(opts, req));
    if (outcome.kind === 'done') {
      limit.succeeded();
      return outcome.value;
    }
    if (outcome.kind === 'rate') {
      refusals++;
      const wait = outcome.retryAfterMs ?? backoffMs(refusals, opts.backoff);
      limit.rateLimited(wait);
      if (refusals >= opts.rateLimitedTries)
        throw new EngineError(
          'TRANSCRIBE_FAILED',
          `transcription server still refuses for rate after ${refusals} tries: ${outcome.detail}`,
        );
      continue;
    }
    limit.succeeded();
    if (outcome.kind === 'final') throw outcome.error;
    failures++;
    if (failures >= opts.attempts)
      throw new EngineError('TRANSCRIBE_FAILED', `transcription failed after ${failures} tries: ${outcome.detail}`);
    await sleep(backoffMs(failures, opts.backoff));
  }
}

type Outcome =
  | { kind: 'done'; value: Transcription }
  | { kind: 'rate'; retryAfterMs: number | null; detail: string }
  | { kind: 'retry'; detail: string }
  | { kind: 'final'; error: EngineError };

async function tryOnce(opts: TranscriptionClientOptions, req: TranscriptionRequest): Promise<Outcome> {
  const form = new FormData();
  form.append('file', req.file, req.fileName);
  form.append('model', opts.model);
  form.append('response_format', 'verbose_json');
  form.append('timestamp_granularities[]', 'word');
  form.append('timestamp_granularities[]', 'segment');
  if (req.prompt) form.append('prompt', req.prompt);
  if (req.language) form.append('language', req.language);
  const headers: Record<string, string> = opts.apiKey ? { authorization: `Bearer ${opts.apiKey}` } : {};
  const url = apiUrl(opts.baseUrl, '/v1/audio/transcriptions');
  const signal = AbortSignal.timeout(opts.timeoutMs);
  let res: Response;
  let text: string;
  try {
    res = await fetch(url, { method: 'POST', body: form, headers, signal });
    text = await res.text();
  } catch (err) {
    const what = signal.aborted ? `no answer within ${opts.timeoutMs} ms` : (err as Error).message;
    return { kind: 'retry', detail: `${url}: ${what}` };
  }
  if (res.status === 429)
    return { kind: 'rate', retryAfterMs: retryAfterMs(res.headers), detail: errorText(text, res.statusText) };
  if (res.status >= 500 || res.status === 408)
    return { kind: 'retry', detail: `answered ${res.status}: ${errorText(text, res.statusText)}` };
  if (!res.ok) {
    const detail = errorText(text, res.statusText);
    // Whisper servers answer 400 for a file they cannot decode; that is the audio, not us.
    const corrupt =
      res.status === 400 &&
      /decod|corrupt|invalid (?:file|audio|data)|file format|unsupported (?:file|audio|format|media)|could not process/i.test(
        detail,
      );
    const error = new EngineError(
      corrupt ? 'AUDIO_CORRUPT' : 'TRANSCRIBE_FAILED',
      `transcription server answered ${res.status}: ${detail}`,
    );
    return { kind: 'final', error };
  }
  let body: VerboseJson;
  try {
    body = JSON.parse(text) as VerboseJson;
  } catch {
    return { kind: 'retry', detail: 'answered 200 without JSON' };
  }
  return { kind: 'done', value: { language: languageCode(body.language), words: wordsOf(body) } };
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
export function wordsOf(body: VerboseJson): AsrWord[] {
  const segments = (body.segments ?? []).filter(
    (s) => typeof s.text === 'string' && s.text.trim() !== '' && (s.no_speech_prob ?? 0) < 0.95,
  );
  const raw = (body.words ?? []).filter(
    (w) => typeof w.word === 'string' && w.word.trim() !== '' && Number.isFinite(w.start) && Number.isFinite(w.end),
  );
  if (raw.length === 0) return segments.flatMap(spreadSegment);
  const words: AsrWord[] = raw.map((w) => ({
    word: (w.word as string).trim(),
    startMs: Math.round((w.start as number) * 1000),
    endMs: Math.round((w.end as number) * 1000),
  }));
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

/** A segment's words spread over its time by their length in letters (a long word takes longer). */
function spreadSegment(s: { start?: number; end?: number; text?: string }): AsrWord[] {
  const tokens = (s.text as string).trim().split(/\s+/);
  const start = (s.start ?? 0) * 1000;
  const end = Math.max(start, (s.end ?? s.start ?? 0) * 1000);
  const weights = tokens.map((w) => bare(w).length + 1);
  const total = weights.reduce((a, b) => a + b, 0);
  let at = start;
  return tokens.map((word, i) => {
    const from = at;
    at += ((end - start) * weights[i]) / total;
    return { word, startMs: Math.round(from), endMs: Math.round(at) };
  });
}

const LANGUAGE_NAMES: Record<string, string> = {
  english: 'en',
  persian: 'fa',
  farsi: 'fa',
  arabic: 'ar',
  german: 'de',
  french: 'fr',
  spanish: 'es',
  turkish: 'tr',
};

/** verbose_json names the language in English ("english"); the contract wants a code. */
export function languageCode(name: string | undefined): string | null {
  const lower = (name ?? '').toLowerCase();
  if (LANGUAGE_NAMES[lower]) return LANGUAGE_NAMES[lower];
  if (/^[a-z]{2}(?:-|$)/.test(lower)) return lower.slice(0, 2);
  return null;
}

function bare(token: string): string {
  return token.toLowerCase().replace(/[^\p{L}\p{N}]+/gu, '');
}
