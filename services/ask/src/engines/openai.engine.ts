import type { AnswerDraft } from '../domain/answer';
import type { AskInput } from '../domain/extractive';
import type { AskContext } from '../services/context';
import { EngineFailed, type AskEngine } from './engine';

export interface OpenAiAskOptions {
  baseUrl: string;
  apiKey: string | null;
  model: string;
  timeoutMs?: number;
}

const clock = (ms: number) => {
  const s = Math.floor(ms / 1000);
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, '0')}`;
};

/**
 * Any OpenAI-compatible `/v1/chat/completions` server, JSON output. The model sees the digests,
 * then every citable turn numbered T1, T2...; it cites turn numbers, which are mapped back to
 * the turns' start times (a number that is no turn stays invented and is dropped afterwards).
 */
export class OpenAiAskEngine implements AskEngine {
  constructor(private readonly opts: OpenAiAskOptions) {}

  async answer(input: AskInput, documents: AskContext['documents']): Promise<AnswerDraft> {
    const digests = documents
      .map((d) => `Meeting "${d.title ?? d.recordingId}" (${d.recordedAt.slice(0, 10)}) digest:\n${d.digestText}`)
      .join('\n\n');
    const turns = input.turns
      .map(
        (t, i) =>
          `T${i + 1} [${t.speaker} at ${clock(t.startMs)}${input.series ? `, meeting "${t.meetingTitle ?? t.recordingId}"` : ''}]: ${t.text}`,
      )
      .join('\n');
    const history = input.history.map((h) => `Q: ${h.question}\nA: ${h.answer}`).join('\n');
    const system = [
      'You answer questions about meetings only from what was said in them.',
      `Reply with a JSON object {"answer": string, "citations": [turn numbers], "refused": boolean}. In "answer", put [n] after a claim supported by the n-th entry of "citations"; cite at most ${input.maxCitations} turns, by their T numbers without the T.`,
      'If the meetings do not say, set "refused" to true, cite nothing and say why in "answer".',
      "Never use a speaker's given name for a label; answer in the question's language.",
    ].join(' ');
    const user = `${digests}\n\nTurns:\n${turns}\n\n${history ? `Earlier questions on these meetings:\n${history}\n\n` : ''}Question: ${input.question}`;
    const res = await fetch(`${this.opts.baseUrl.replace(/\/$/, '')}/v1/chat/completions`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        ...(this.opts.apiKey ? { authorization: `Bearer ${this.opts.apiKey}` } : {}),
      },
      body: JSON.stringify({
        model: this.opts.model,
        temperature: 0.1,
        response_format: { type: 'json_object' },
        messages: [
          { role: 'system', content: system },
          { role: 'user', content: user },
        ],
      }),
      signal: AbortSignal.timeout(this.opts.timeoutMs ?? 120_000),
    }).catch((err: unknown) => {
      throw new EngineFailed(`chat server unreachable: ${String(err)}`);
    });
    if (!res.ok) throw new EngineFailed(`chat server answered ${res.status}`);
    const body = (await res.json().catch(() => null)) as {
      choices?: { message?: { content?: string | null } }[];
    } | null;
    const content = body?.choices?.[0]?.message?.content;
    if (typeof content !== 'string') throw new EngineFailed('chat server answered without message content');
    let parsed: { answer?: unknown; citations?: unknown; refused?: unknown };
    try {
      parsed = JSON.parse(content) as typeof parsed;
    } catch {
      throw new EngineFailed('the model answered no JSON');
    }
    if (typeof parsed.answer !== 'string') throw new EngineFailed('the model answered no text');
    const numbers = Array.isArray(parsed.citations)
      ? parsed.citations.map((c) => Number(String(c).replace(/^T/i, '')))
      : [];
    return {
      answer: parsed.answer,
      // A number that is no turn keeps an impossible start time: finishAnswer drops it as invented.
      citations: numbers.map((n) => {
        const t = Number.isInteger(n) ? input.turns[n - 1] : undefined;
        return t ? { recordingId: t.recordingId, startMs: t.startMs } : { recordingId: '', startMs: -1 };
      }),
      refused: parsed.refused === true,
    };
  }
}
