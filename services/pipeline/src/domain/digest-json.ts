/**
 * The contract with a chat model that writes a digest: the prompt that asks for JSON, and the
 * checks its answer must pass. Every item must cite real segments by index and a quoted
 * question must really be in the segment it cites; what fails is dropped, and an answer
 * whose citations are all invented is refused as a whole, like Ask's.
 */
import type { ActionItem, DigestInput, SectionContent } from './digest';
import { DIGEST_TEMPLATES } from './digest';

export interface ModelDigest {
  title: string;
  content: SectionContent;
  /** Items dropped for citing no real segment or misquoting one. */
  dropped: number;
  /** The real segments the summary cites. */
  summarySegments: number[];
}

export class DigestCheckError extends Error {
  override readonly name = 'DigestCheckError';
}

const LIST_FIELDS = {
  decision_list: 'decisions',
  action_item_list: 'action_items',
  key_point_list: 'key_points',
  question_list: 'questions',
} as const;

/** The system and user messages for a chat completion that returns the digest as JSON. */
export function digestPrompt(input: DigestInput): Array<{ role: 'system' | 'user'; content: string }> {
  const wanted = DIGEST_TEMPLATES[input.kind]
    .filter((k) => k !== 'summary')
    .map((k) => LIST_FIELDS[k as keyof typeof LIST_FIELDS]);
  const language = input.language === 'fa' ? 'Persian (Farsi)' : 'English';
  const system = [
    `You write the notes of a recorded ${input.kind.toLowerCase().replace('_', ' ')} from its transcript. Write in ${language}.`,
    'Answer with one JSON object and nothing else, shaped like this:',
    '{"title": string, "summary": {"text": string, "segments": [int]},',
    ' "decisions": [{"text": string, "segments": [int]}],',
    ' "action_items": [{"text": string, "owner": string or null, "segments": [int]}],',
    ' "key_points": [{"text": string, "segments": [int]}],',
    ' "questions": [{"text": string, "quote": string, "segments": [int]}]}',
    `Fill these lists: ${wanted.join(', ') || 'none'}; leave the others empty.`,
    '"segments" lists the [index] numbers of the transcript lines that support the item; every item cites at least one.',
    'A question\'s "quote" is copied word for word from the segment it cites.',
    'An owner is a person named in the transcript or the notes about the user, else null. Never invent names, dates or facts.',
  ];
  if (input.memory?.length) system.push('Notes about the user:', ...input.memory.map((m) => `- ${m}`));
  const transcript = input.segments.map(transcriptLine);
  return [
    { role: 'system', content: system.join('\n') },
    { role: 'user', content: `Transcript:\n${transcript.join('\n')}` },
  ];
}

/** One segment as the model reads it: `[index] speaker (m:ss): text`. */
export function transcriptLine(s: DigestInput['segments'][number]): string {
  return `[${s.index}] ${s.speakerName ?? s.speaker} (${clock(s.startMs)}): ${s.text}`;
}

/** Checks a model's JSON answer against the real segments and returns the surviving content. */
export function parseModelDigest(raw: string, input: DigestInput): ModelDigest {
  let json: unknown;
  try {
    json = JSON.parse(stripFence(raw));
  } catch {
    throw new DigestCheckError('the model did not answer with JSON');
  }
  if (!isObject(json)) throw new DigestCheckError('the model answer is not a JSON object');
  const byIndex = new Map(input.segments.map((s) => [s.index, s]));
  const names = new Set(
    [
      ...input.segments.flatMap((s) => [s.speakerName ?? '']),
      ...(input.memory ?? []),
      ...input.segments.map((s) => s.text),
    ]
      .join(' ')
      .toLowerCase()
      .split(/[^\p{L}]+/u),
  );
  let cited = 0;
  let dropped = 0;
  const realCitations = (item: Record<string, unknown>): number[] => {
    const list = Array.isArray(item.segments) ? item.segments.filter((n): n is number => Number.isInteger(n)) : [];
    cited += list.length > 0 ? 1 : 0;
    return list.filter((n) => byIndex.has(n));
  };
  const keep = (
    value: unknown,
    check?: (item: Record<string, unknown>, segs: number[]) => boolean,
  ): Array<Record<string, unknown>> => {
    const items = Array.isArray(value) ? value.filter(isObject) : [];
    return items.filter((item) => {
      const segs = realCitations(item);
      const pass =
        typeof item.text === 'string' && item.text.trim() !== '' && segs.length > 0 && (!check || check(item, segs));
      if (!pass) dropped++;
      return pass;
    });
  };
  const summaryObj = isObject(json.summary) ? json.summary : { text: json.summary, segments: [] };
  const summaryText = typeof summaryObj.text === 'string' ? summaryObj.text.trim() : '';
  const summaryCites = Array.isArray(summaryObj.segments) ? summaryObj.segments : [];
  const summarySegments = summaryCites.length > 0 ? realCitations(summaryObj) : [];
  if (summaryCites.length > 0 && summarySegments.length === 0)
    throw new DigestCheckError('the summary cites only segments that do not exist');

  const decisions = keep(json.decisions).map((i) => oneLine(i.text as string));
  const actions: ActionItem[] = keep(json.action_items).map((i) => ({
    text: oneLine(i.text as string),
    // An owner nobody mentioned is the model's invention: the item stays, the name goes.
    owner:
      typeof i.owner === 'string' &&
      i.owner.trim() &&
      i.owner
        .toLowerCase()
        .split(/\s+/)
        .every((w) => names.has(w))
        ? i.owner.trim()
        : null,
  }));
  const keyPoints = keep(json.key_points).map((i) => oneLine(i.text as string));
  const questions = keep(json.questions, (item, segs) => {
    const quote = typeof item.quote === 'string' ? item.quote : (item.text as string);
    return segs.some((n) => normalized(byIndex.get(n)?.text ?? '').includes(normalized(quote)));
  }).map((i) => oneLine(i.text as string));

  const kept = decisions.length + actions.length + keyPoints.length + questions.length;
  if (cited > 0 && kept === 0 && dropped > 0)
    throw new DigestCheckError('every item the model cited points at no real segment');
  if (summaryText === '' && kept === 0) throw new DigestCheckError('the model wrote an empty digest');
  const title = typeof json.title === 'string' && json.title.trim() ? oneLine(json.title).slice(0, 120) : '';
  return {
    title,
    content: {
      summary: summaryText,
      decision_list: decisions,
      action_item_list: actions,
      key_point_list: keyPoints,
      question_list: questions,
    },
    dropped,
    summarySegments,
  };
}

function normalized(text: string): string {
  return text
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();
}

function stripFence(raw: string): string {
  // Some servers wrap JSON mode answers in a Markdown fence anyway.
  const m = /^\s*```(?:json)?\s*([\s\S]*?)\s*```\s*$/.exec(raw);
  return m ? m[1] : raw;
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function oneLine(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

function clock(ms: number): string {
  const s = Math.floor(ms / 1000);
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, '0')}`;
}
