import { contentWords, excerptOf, rankTurns, type Turn } from './retrieval';
import type { AnswerDraft } from './answer';

export interface AskInput {
  question: string;
  /** The turns that may be cited, in reading order (a series: oldest meeting first). */
  turns: (Turn & { meetingTitle?: string | null })[];
  maxCitations: number;
  series: boolean;
  /** The latest earlier questions on the same meeting or series, newest first. */
  history: { question: string; answer: string }[];
}

/** Persian or Arabic letters in the question: answer in Persian. */
export const isPersian = (s: string) => /[\u0600-\u06ff]/.test(s);

const TEXTS = {
  en: {
    intro: 'From what was said:',
    refusedMeeting: 'The meeting does not say anything about that, so there is no answer to give from it.',
    refusedSeries: "None of the series' meetings says anything about that, so there is no answer to give from them.",
    inMeeting: (title: string) => `In "${title}":`,
  },
  fa: {
    intro: 'بر پایهٔ آنچه گفته شد:',
    refusedMeeting: 'در این جلسه چیزی دربارهٔ این پرسش گفته نشده است، پس پاسخی از آن نمی‌توان داد.',
    refusedSeries: 'در هیچ‌یک از جلسه‌های این مجموعه چیزی دربارهٔ این پرسش گفته نشده است، پس پاسخی از آن‌ها نمی‌توان داد.',
    inMeeting: (title: string) => `در «${title}»:`,
  },
};

/** Turns within this share of the best score are worth citing. */
const KEEP_SHARE = 0.35;

/**
 * The offline Ask engine: retrieval over the turns (BM25), then an answer made of the best turns'
 * own words (the part of a long turn that matters: excerptOf), each followed by its marker, in
 * reading order. A question none of the turns shares
 * a word with is declined (refused, charged like any answer). A short follow-up ("and when?")
 * borrows the words of the previous question on the same meeting.
 */
export function extractiveAnswer(input: AskInput): AnswerDraft {
  const t = isPersian(input.question) ? TEXTS.fa : TEXTS.en;
  let query = input.question;
  // A short follow-up ("And when?", "the budget?") is read with the previous question; a word the
  // meeting never says ("aaaa…") makes it a question of its own, declined, not the previous one.
  const own = contentWords(query);
  if (own.length < 2 && input.history.length > 0 && (own.length === 0 || rankTurns(query, input.turns).length > 0))
    query = `${query} ${input.history[0].question}`;
  const ranked = rankTurns(query, input.turns);
  if (ranked.length === 0)
    return { answer: input.series ? t.refusedSeries : t.refusedMeeting, citations: [], refused: true };
  const best = ranked[0].score;
  const chosen = ranked
    .filter((r) => r.score >= best * KEEP_SHARE)
    .slice(0, input.maxCitations)
    .map((r) => r.turn);
  const order = new Map(input.turns.map((turn, i) => [turn, i]));
  chosen.sort((a, b) => order.get(a)! - order.get(b)!);
  const parts: string[] = [t.intro];
  let lastTitle: string | null | undefined;
  chosen.forEach((turn, i) => {
    if (input.series && turn.meetingTitle && turn.meetingTitle !== lastTitle)
      parts.push(t.inMeeting(turn.meetingTitle));
    lastTitle = turn.meetingTitle;
    const trimmed = excerptOf(turn.text, query).replace(/[.!?۔]+$/u, '');
    const said = trimmed.charAt(0).toUpperCase() + trimmed.slice(1);
    parts.push(`${said} [${i + 1}].`);
  });
  return {
    answer: parts.join(' '),
    citations: chosen.map((turn) =>
      input.series ? { recordingId: turn.recordingId, startMs: turn.startMs } : { startMs: turn.startMs },
    ),
    refused: false,
  };
}
