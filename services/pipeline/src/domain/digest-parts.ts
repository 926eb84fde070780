/**
 * A transcript longer than the chat model's budget is summarised in parts and merged: the parts
 * are runs of whole segments (keeping their meeting-wide indices, so every citation still names a
 * real turn), each part's lists are kept, and one more request merges the parts' summaries.
 */
import type { DigestSegment, SectionContent } from './digest';

/**
 * Tokens a text costs, estimated from its characters: about 4 per token in English, fewer in
 * Persian; 3 keeps a margin for both without a tokenizer.
 */
export function estimateTokens(text: string): number {
  return Math.ceil(text.length / 3);
}

/** Runs of consecutive segments whose lines cost at most `budgetTokens` each (a longer lone segment is a part alone). */
export function splitSegments(
  segments: readonly DigestSegment[],
  budgetTokens: number,
  lineOf: (s: DigestSegment) => string,
): DigestSegment[][] {
  const parts: DigestSegment[][] = [];
  let current: DigestSegment[] = [];
  let used = 0;
  for (const s of segments) {
    const cost = estimateTokens(lineOf(s)) + 1;
    if (current.length > 0 && used + cost > budgetTokens) {
      parts.push(current);
      current = [];
      used = 0;
    }
    current.push(s);
    used += cost;
  }
  if (current.length > 0) parts.push(current);
  return parts;
}

const key = (text: string) =>
  text
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();

/** The parts' lists joined in meeting order, an item said the same way twice kept once; summary left to the merge. */
export function mergeLists(parts: readonly SectionContent[]): Omit<SectionContent, 'summary'> {
  const unique = <T>(items: T[], text: (t: T) => string): T[] => {
    const seen = new Set<string>();
    return items.filter((i) => {
      const k = key(text(i));
      if (seen.has(k)) return false;
      seen.add(k);
      return true;
    });
  };
  const same = (s: string) => s;
  return {
    decision_list: unique(
      parts.flatMap((p) => p.decision_list),
      same,
    ),
    action_item_list: unique(
      parts.flatMap((p) => p.action_item_list),
      (a) => a.text,
    ),
    key_point_list: unique(
      parts.flatMap((p) => p.key_point_list),
      same,
    ),
    question_list: unique(
      parts.flatMap((p) => p.question_list),
      same,
    ),
  };
}

/** The request that merges the parts' summaries into one, citing segments the parts cited. */
export function mergePrompt(
  language: 'en' | 'fa',
  summaries: Array<{ text: string; segments: number[] }>,
): Array<{ role: 'system' | 'user'; content: string }> {
  const lang = language === 'fa' ? 'Persian (Farsi)' : 'English';
  const system = [
    `These are summaries of consecutive parts of one recorded meeting, in order. Write one summary of the whole meeting in ${lang}, and a short title.`,
    'Answer with one JSON object and nothing else: {"title": string, "summary": {"text": string, "segments": [int]}}.',
    '"segments" lists transcript line numbers taken from the parts\' own lists that support the summary. Never invent facts.',
  ];
  const user = summaries
    .map((s, i) => `Part ${i + 1} (lines ${s.segments.join(', ') || 'none'}):\n${s.text}`)
    .join('\n\n');
  return [
    { role: 'system', content: system.join('\n') },
    { role: 'user', content: user },
  ];
}
