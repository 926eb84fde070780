import { searchWords } from '@mm/text';

/** One turn an answer may cite. */
export interface Turn {
  /** Only in a series: the meeting the turn belongs to. */
  recordingId?: string;
  startMs: number;
  /** The transcribed label (speaker_0), never a given name. */
  speaker: string;
  text: string;
}

/** Words that say nothing about what a question is about (English and Persian). */
const STOP = new Set(
  (
    'a an the and or but if of to in on at by for with about from into over after before as is are was were be been being do does did ' +
    'what who whom whose which when where why how that this these those it its they them their we us our you your he she his her i me my ' +
    'can could should would will shall may might must have has had not no yes any some all there here than then so too very just also ' +
    'meeting said say says tell told talk talked discuss discussed ' +
    'و یا اما اگر از به در با برای که این آن را تا هم نیز چه چی چرا کی کجا چگونه چطور آیا است بود هست نیست شد شده می ها های ما شما او آنها ' +
    'درباره دربارهٔ جلسه گفت گفته'
  ).split(/\s+/),
);

/** The words of a text that carry meaning, normalized (English and Persian). */
export function contentWords(text: string): string[] {
  return searchWords(text).filter((w) => !STOP.has(w) && (w.length > 1 || /\d/.test(w)));
}

/** A word matches a turn's word when one starts with the other and the shorter has 4+ letters (plural, tense), or they are equal. */
function matches(q: string, w: string): boolean {
  if (q === w) return true;
  const [short, long] = q.length <= w.length ? [q, w] : [w, q];
  return short.length >= 4 && long.startsWith(short);
}

const K1 = 1.2;
const B = 0.75;

/**
 * Ranks turns against a question with BM25 (each turn a document), best first; turns that share
 * no word with the question are left out. Ties go to the earlier turn.
 */
export function rankTurns<T extends Turn>(question: string, turns: readonly T[]): { turn: T; score: number }[] {
  const terms = [...new Set(contentWords(question))];
  if (terms.length === 0 || turns.length === 0) return [];
  const docs = turns.map((t) => contentWords(t.text));
  const avgLength = docs.reduce((n, d) => n + d.length, 0) / docs.length || 1;
  const tf = (term: string, doc: string[]) => doc.reduce((n, w) => n + (matches(term, w) ? 1 : 0), 0);
  const idf = new Map(
    terms.map((term) => {
      const df = docs.filter((d) => tf(term, d) > 0).length;
      return [term, Math.log(1 + (docs.length - df + 0.5) / (df + 0.5))];
    }),
  );
  const ranked: { turn: T; score: number; order: number }[] = [];
  docs.forEach((doc, i) => {
    let score = 0;
    for (const term of terms) {
      const f = tf(term, doc);
      if (f > 0) score += idf.get(term)! * ((f * (K1 + 1)) / (f + K1 * (1 - B + (B * doc.length) / avgLength)));
    }
    if (score > 0) ranked.push({ turn: turns[i], score, order: i });
  });
  ranked.sort((a, b) => b.score - a.score || a.order - b.order);
  return ranked.map(({ turn, score }) => ({ turn, score }));
}

/** Longest excerpt of one turn an answer quotes, in words. */
export const EXCERPT_MAX_WORDS = 40;

/**
 * The part of a turn worth quoting for a question: a short turn whole; else its sentences that
 * share a word with the question; else (a long turn without punctuation, as speech recognizers
 * write) a window of words from a little before the first shared word, with ellipses.
 */
export function excerptOf(text: string, question: string, maxWords = EXCERPT_MAX_WORDS): string {
  const clean = text.trim();
  const words = clean.split(/\s+/);
  if (words.length <= maxWords) return clean;
  const terms = contentWords(question);
  const shares = (s: string) => contentWords(s).some((w) => terms.some((q) => matches(q, w)));
  const sentences = clean.split(/(?<=[.!?؟۔])\s+/u);
  if (sentences.length > 1) {
    const kept = sentences.filter(shares);
    if (kept.length > 0 && kept.join(' ').split(/\s+/).length <= maxWords * 1.5) return kept.join(' ');
  }
  const first = Math.max(
    0,
    words.findIndex((w) => shares(w)),
  );
  const start = Math.max(0, first - 8);
  const end = Math.min(words.length, start + maxWords);
  return `${start > 0 ? '… ' : ''}${words.slice(start, end).join(' ')}${end < words.length ? ' …' : ''}`;
}
