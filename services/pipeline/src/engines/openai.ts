/**
 * The digest over any OpenAI-compatible server: a chat model writing the digest as JSON whose
 * citations are checked against the real segments before anything is kept. (Transcription:
 * openai-asr.ts.)
 */
import { assembleDigest, type Digest, type DigestInput, suggestDigestTitle } from '../domain/digest';
import { DigestCheckError, digestPrompt, parseModelDigest } from '../domain/digest-json';
import type { DigestEngine } from './digest';
import { EngineError } from './engine-error';
import { apiUrl, errorText } from './openai-http';

export interface OpenAiOptions {
  /** Server root, e.g. https://api.openai.com (a trailing /v1 is tolerated). */
  baseUrl: string;
  apiKey?: string;
  model: string;
  timeoutMs?: number;
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
    if (!res.ok) throw new EngineError('GENERATE_FAILED', `chat server answered ${res.status}: ${errorText(await res.text().catch(() => ''), res.statusText)}`);
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

async function call(opts: OpenAiOptions, route: string, init: { body: FormData | string; headers?: Record<string, string> }, code: 'GENERATE_FAILED'): Promise<Response> {
  const url = apiUrl(opts.baseUrl, route);
  const headers: Record<string, string> = { ...init.headers };
  if (opts.apiKey) headers.authorization = `Bearer ${opts.apiKey}`;
  try {
    return await fetch(url, { method: 'POST', body: init.body, headers, signal: AbortSignal.timeout(opts.timeoutMs ?? 600000) });
  } catch (err) {
    throw new EngineError(code, `cannot reach ${url}: ${(err as Error).message}`, { cause: err });
  }
}
