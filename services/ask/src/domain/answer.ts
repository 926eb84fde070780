import type { Turn } from './retrieval';

/** What an engine writes: `[n]` in `answer` points at `citations[n - 1]`, which may be invented. */
export interface AnswerDraft {
  answer: string;
  citations: { recordingId?: string; startMs: number }[];
  refused: boolean;
}

export interface Citation {
  startMs: number;
  speaker: string | null;
  recordingId?: string;
}

export type Finished =
  | { ok: true; answer: string; citations: Citation[]; refused: boolean }
  | { ok: false; reason: string };

const MARKER = /\[(\d+)\]/g;

const keyOf = (c: { recordingId?: string; startMs: number }) => `${c.recordingId ?? ''}\u0000${c.startMs}`;

/**
 * Makes a draft into the contract's answer: citations that point at no real turn are dropped, so
 * are markers that point at nothing; the rest are renumbered 1, 2, 3 in reading order, and the
 * citations listed in the order first cited, at most `maxCitations` (later markers are removed).
 * A draft whose every citation was invented is not an answer (GENERATE_FAILED).
 */
export function finishAnswer(
  draft: AnswerDraft,
  turns: readonly Turn[],
  maxCitations: number,
  series: boolean,
): Finished {
  const real = new Map(turns.map((t) => [keyOf(series ? t : { startMs: t.startMs }), t]));
  const resolved = draft.citations.map((c) => real.get(keyOf(series ? c : { startMs: c.startMs })) ?? null);
  if (draft.citations.length > 0 && resolved.every((t) => t === null))
    return { ok: false, reason: 'every citation points at no real turn' };

  const numberOf = new Map<number, number>(); // draft index → new number
  const citations: Citation[] = [];
  let text = draft.answer.replace(MARKER, (_m, n: string) => {
    const i = Number(n) - 1;
    const turn = resolved[i];
    if (!turn) return '';
    let number = numberOf.get(i);
    if (number === undefined) {
      // Two draft citations of the same turn become one citation.
      const same = citations.findIndex((c) => c.startMs === turn.startMs && c.recordingId === turn.recordingId);
      if (same >= 0) number = same + 1;
      else {
        if (citations.length >= maxCitations) return '';
        citations.push(
          series
            ? { startMs: turn.startMs, speaker: turn.speaker || null, recordingId: turn.recordingId }
            : { startMs: turn.startMs, speaker: turn.speaker || null },
        );
        number = citations.length;
      }
      numberOf.set(i, number);
    }
    return `[${number}]`;
  });
  // A repeated marker right after itself ([1][1]) says nothing more.
  text = text.replace(/(\[\d+\])(?:\1)+/g, '$1');
  text = text
    .replace(/[ \t]+([.,;:!?،؛])/g, '$1')
    .replace(/[ \t]{2,}/g, ' ')
    .trim();
  if (!text) return { ok: false, reason: 'the answer is empty' };
  return { ok: true, answer: text, citations, refused: draft.refused };
}
