/**
 * The digest over any OpenAI-compatible server: a chat model writing the digest as JSON whose
 * citations are checked against the real segments before anything is kept. (Transcription:
 * openai-asr.ts.)
 */
import { assembleDigest, type Digest, type DigestInput, suggestDigestTitle } from '../domain/digest';
import {
  DigestCheckError,
  digestPrompt,
  type ModelDigest,
  parseModelDigest,
  transcriptLine,
} from '../domain/digest-json';
import { estimateTokens, mergeLists, mergePrompt, splitSegments } from '../domain/digest-parts';
import type { DigestEngine } from './digest';
import { EngineError } from './engine-error';
import { apiUrl, errorText } from './openai-http';

export interface OpenAiOptions {
  /** Server root, e.g. https://api.openai.com (a trailing /v1 is tolerated). */
  baseUrl: string;
  apiKey?: string;
  model: string;
  timeoutMs?: number;
  /** Tokens of transcript and instructions one request may carry (LLM_CONTEXT_TOKENS); longer goes in parts. */
  contextTokens?: number;
}

export class OpenAiDigest implements DigestEngine {
  constructor(private readonly opts: OpenAiOptions) {}

  /**
   * One request when the transcript fits the model's budget (`contextTokens`); otherwise the
   * transcript in parts of whole segments, each part's lists kept, and one more request merging
   * the parts' summaries. Every item still cites real segments (each part is checked against its
   * own segments, the merged summary against the whole transcript).
   */
  async generate(input: DigestInput): Promise<Digest> {
    const messages = digestPrompt(input);
    const budget = this.opts.contextTokens ?? Number.POSITIVE_INFINITY;
    if (estimateTokens(messages.map((m) => m.content).join('\n')) <= budget) {
      const parsed = await this.ask(messages, input);
      return assembleDigest(input.kind, input.language, parsed.title || suggestDigestTitle(input), parsed.content);
    }
    const room =
      budget -
      estimateTokens(
        digestPrompt({ ...input, segments: [] })
          .map((m) => m.content)
          .join('\n'),
      );
    if (room < 200)
      throw new EngineError(
        'GENERATE_FAILED',
        `the chat model's budget (${budget} tokens) leaves no room for the transcript`,
      );
    const parts: ModelDigest[] = [];
    for (const segments of splitSegments(input.segments, room, transcriptLine)) {
      const part = { ...input, segments };
      // A part the model answers badly is left out; the meeting fails only if every part does.
      const parsed = await this.ask(digestPrompt(part), part).catch((err: unknown) => {
        if (err instanceof EngineError && err.message.startsWith('check:')) return null;
        throw err;
      });
      if (parsed) parts.push(parsed);
    }
    if (parts.length === 0)
      throw new EngineError(
        'GENERATE_FAILED',
        'check: no part of the transcript got a digest that cites real segments',
      );
    const merged = await this.ask(
      mergePrompt(
        input.language,
        parts.map((p) => ({ text: p.content.summary, segments: p.summarySegments })),
      ),
      input,
    );
    const content = { summary: merged.content.summary, ...mergeLists(parts.map((p) => p.content)) };
    return assembleDigest(input.kind, input.language, merged.title || suggestDigestTitle(input), content);
  }

  /** One chat completion in JSON mode, checked against the input's segments. */
  private async ask(messages: Array<{ role: string; content: string }>, input: DigestInput): Promise<ModelDigest> {
    const payload = { model: this.opts.model, temperature: 0.2, response_format: { type: 'json_object' }, messages };
    const res = await call(
      this.opts,
      '/v1/chat/completions',
      { body: JSON.stringify(payload), headers: { 'content-type': 'application/json' } },
      'GENERATE_FAILED',
    );
    if (!res.ok)
      throw new EngineError(
        'GENERATE_FAILED',
        `chat server answered ${res.status}: ${errorText(await res.text().catch(() => ''), res.statusText)}`,
      );
    const body = (await res.json().catch(() => null)) as {
      choices?: Array<{ message?: { content?: string | null } }>;
    } | null;
    const content = body?.choices?.[0]?.message?.content;
    if (typeof content !== 'string')
      throw new EngineError('GENERATE_FAILED', 'chat server answered without message content');
    try {
      return parseModelDigest(content, input);
    } catch (err) {
      if (err instanceof DigestCheckError)
        throw new EngineError('GENERATE_FAILED', `check: ${err.message}`, { cause: err });
      throw err;
    }
  }
}

async function call(
  opts: OpenAiOptions,
  route: string,
  init: { body: FormData | string; headers?: Record<string, string> },
  code: 'GENERATE_FAILED',
): Promise<Response> {
  const url = apiUrl(opts.baseUrl, route);
  const headers: Record<string, string> = { ...init.headers };
  if (opts.apiKey) headers.authorization = `Bearer ${opts.apiKey}`;
  try {
    return await fetch(url, {
      method: 'POST',
      body: init.body,
      headers,
      signal: AbortSignal.timeout(opts.timeoutMs ?? 600000),
    });
  } catch (err) {
    throw new EngineError(code, `cannot reach ${url}: ${(err as Error).message}`, { cause: err });
  }
}
