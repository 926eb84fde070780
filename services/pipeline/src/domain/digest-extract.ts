/**
 * Extractive digest rules, pure: every line of the digest is a sentence of the transcript,
 * chosen by centrality (how much of the meeting's vocabulary it shares with the rest) or by
 * cue phrases for decisions and action items.
 */
import { FIRST_NAMES } from './first-names';
import { isWrittenTranscript, spokenSentences, writeSentence } from './spoken-sentences';
import { contentTerms, isQuestion, splitSentences, type TextLanguage, wordsOf } from './text-units';

export interface SourceSegment {
  index: number;
  speaker: string;
  speakerName: string | null;
  startMs: number;
  endMs: number;
  text: string;
  /** Silence before each word of `text` but the first, ms (the offline recognizer's timing). */
  pausesMs?: readonly number[];
}

export interface Sentence {
  /** Reading order across the meeting. */
  order: number;
  /** The turn it was said in; its words are a run of that turn's words. */
  segment: SourceSegment;
  /** As written in the digest: punctuated and capitalized when the transcript was not. */
  text: string;
  terms: string[];
  score: number;
}

const EN_DECISION = [
  /\b(?:we|i|they|the team|everyone|everybody)\s+(?:have\s+|has\s+|all\s+)?(?:decided|agreed|settled|concluded|chose|resolved|approved)\b/,
  /\b(?:decision|consensus)\s+(?:is|was)\b/,
  /\blet'?s go with\b/,
  /\bwe(?:'re| are) going (?:to go )?with\b/,
  /\bit(?:'s| is) (?:decided|agreed|settled)\b/,
];
const FA_DECISION = [
  /تصمیم\s*(?:گرفتیم|گرفته\s*شد|بر\s*این)/u,
  /توافق\s*(?:کردیم|شد)/u,
  /قرار\s*شد/u,
  /به\s*این\s*نتیجه\s*رسیدیم/u,
  /تصویب\s*(?:شد|کردیم)/u,
];

const EN_ACTION = [
  /\baction items?\b/,
  /\b(?:to-?do|follow[- ]up)\b/,
  /\b(?:i|we|you|he|she|they)\s*(?:will|'ll|am going to|are going to|is going to|need to|needs to|have to|has to|must)\s+(?!be\b|see\b)[a-z]+/,
  /\b(?:please|can you|could you|let me)\s+[a-z]+/,
];
// "<name> will <verb>": the subject is checked against the names the meeting knows.
const EN_NAMED_ACTION = /\b(\p{L}+)\s+(?:will|is going to|needs to|has to|must)\s+(?!be\b)\p{L}+/giu;
const FA_ACTION = [
  /(?:^|\s)(?:باید|قرار\s*است|لطفا|لطفاً|پیگیری)(?:\s|$)/u,
  /(?:^|\s)خواه(?:م|د|یم|ند)\s/u,
  /(?:^|\s)اقدام(?:\s|$)/u,
];

const PRONOUNS = new Set([
  'i',
  'you',
  'he',
  'she',
  'we',
  'they',
  'it',
  'this',
  'that',
  'who',
  'someone',
  'everyone',
  'somebody',
  'everybody',
  'team',
]);

// Opening and closing courtesies are central to nothing; they never summarize a meeting.
const EN_SMALL_TALK =
  /^(?:(?:good (?:morning|afternoon|evening)|hello|hi|hey)(?: everyone| everybody| all)?|thank you(?: all| everyone| everybody)?|thanks(?: all| everyone)?|bye|see you)\b/;

export function isDecision(sentence: string, language: TextLanguage): boolean {
  const s = sentence.toLowerCase();
  return (language === 'fa' ? FA_DECISION : EN_DECISION).some((r) => r.test(s));
}

/** The words that announce action items without being one ("Action items." said before the tasks). */
const EN_ACTION_CUES = /\b(?:action items?|to-?dos?|follow[- ]ups?|next steps?)\b/g;
const FA_ACTION_CUES = /(?:^|\s)(?:اقدام(?:ات|ها)?|پیگیری|کار(?:های)? بعدی)(?=\s|$)/gu;

/** Fewer than two words besides the cue: a heading said aloud, not a task (nothing to do, no one to do it). */
function onlyCue(s: string, language: TextLanguage): boolean {
  const rest = s.replace(language === 'fa' ? FA_ACTION_CUES : EN_ACTION_CUES, ' ');
  return rest.split(/[^\p{L}\p{N}]+/u).filter(Boolean).length < 2;
}

export function isActionItem(sentence: string, language: TextLanguage, knownNames: readonly string[] = []): boolean {
  const s = sentence.toLowerCase();
  if (onlyCue(s, language)) return false;
  if (isQuestion(s, language) && !/\baction items?\b/.test(s)) return false;
  if ((language === 'fa' ? FA_ACTION : EN_ACTION).some((r) => r.test(s))) return true;
  if (language === 'fa') return knownNames.some((n) => s.includes(`${n.toLowerCase()} باید`));
  const names = new Set(knownNames.map((n) => n.toLowerCase()));
  for (const m of sentence.matchAll(EN_NAMED_ACTION)) {
    const w = m[1].toLowerCase();
    if (names.has(w) || FIRST_NAMES.has(w)) return true;
  }
  return false;
}

/** Splits segments into sentences and scores each by TF-IDF centrality, memory terms boosting. */
export function scoreSentences(
  segments: readonly SourceSegment[],
  language: TextLanguage,
  memory: readonly string[] = [],
): Sentence[] {
  const sentences: Sentence[] = [];
  const written = isWrittenTranscript(segments.map((s) => s.text));
  for (const segment of segments) {
    const texts = written
      ? splitSentences(segment.text, language)
      : spokenSentences(segment.text, segment.pausesMs, language).map((s) => writeSentence(s, language));
    for (const text of texts) {
      sentences.push({ order: sentences.length, segment, text, terms: contentTerms(text, language), score: 0 });
    }
  }
  const df = new Map<string, number>();
  for (const s of sentences) for (const t of new Set(s.terms)) df.set(t, (df.get(t) ?? 0) + 1);
  const n = sentences.length;
  const vectors = sentences.map((s) => tfidf(s.terms, df, n));
  const memoryTerms = new Set(memory.flatMap((m) => contentTerms(m, language)));
  sentences.forEach((s, i) => {
    let centrality = 0;
    for (let j = 0; j < n; j++) if (j !== i) centrality += cosine(vectors[i], vectors[j]);
    const distinct = new Set(s.terms).size;
    // Fragments of one or two content words say too little to stand alone in a summary.
    const substance = Math.min(1, distinct / 5);
    const remembered = s.terms.filter((t) => memoryTerms.has(t)).length;
    const courtesy = language === 'en' && EN_SMALL_TALK.test(s.text.toLowerCase()) && distinct < 4 ? 0.2 : 1;
    // What was decided or assigned is what a reader of the summary most needs.
    const cue = isDecision(s.text, language) ? 0.15 : isActionItem(s.text, language) ? 0.05 : 0;
    s.score = (centrality / Math.max(1, n - 1) + 0.02 * distinct + 0.05 * remembered + cue) * substance * courtesy;
  });
  return sentences;
}

/**
 * The best sentences, skipping any too similar to one already taken (so the summary does not
 * say the same thing twice), returned in reading order.
 */
export function pickSentences(
  sentences: readonly Sentence[],
  count: number,
  exclude: ReadonlySet<number> = new Set(),
): Sentence[] {
  const ranked = sentences
    .filter((s) => !exclude.has(s.order) && s.terms.length > 0)
    .sort((a, b) => b.score - a.score || a.order - b.order);
  const chosen: Sentence[] = [];
  for (const s of ranked) {
    if (chosen.length >= count) break;
    if (chosen.some((c) => overlap(c.terms, s.terms) > 0.6)) continue;
    chosen.push(s);
  }
  return chosen.sort((a, b) => a.order - b.order);
}

/** How many sentences a summary of this meeting gets: about one in six, three to six. */
export function summaryLength(sentenceCount: number): number {
  return Math.max(Math.min(3, sentenceCount), Math.min(6, Math.round(sentenceCount / 6)));
}

/**
 * Who an action item belongs to: a person named as its subject ("Sara will ..."), else a
 * known person mentioned in it, else the speaker when they say "I will"; null when unclear.
 */
export function actionOwner(sentence: Sentence, knownNames: readonly string[], language: TextLanguage): string | null {
  const words = wordsOf(sentence.text);
  const known = new Map(knownNames.map((name) => [name.toLowerCase(), name]));
  const asName = (w: string): string | null => known.get(w) ?? (FIRST_NAMES.has(w) ? capitalize(w) : null);
  const lower = sentence.text.toLowerCase();
  if (language === 'en') {
    const subject =
      /(?:^|[^\p{L}])(\p{L}+)\s+(?:will|'ll|is going to|needs? to|has to|must|should)\b/iu.exec(sentence.text) ??
      /\b(?:for|to|owner|assigned to)\s+(\p{L}+)/iu.exec(sentence.text);
    if (subject) {
      const token = subject[1];
      const name = asName(token.toLowerCase());
      if (name) return name;
      // A capitalized subject that does not open the sentence is a name in a cased transcript.
      const opensSentence = sentence.text.trimStart().startsWith(token);
      if (/^\p{Lu}\p{Ll}+$/u.test(token) && !opensSentence && !PRONOUNS.has(token.toLowerCase())) return token;
    }
  }
  for (const w of words) {
    const name = known.get(w);
    if (name) return name;
  }
  for (const w of words) {
    if (FIRST_NAMES.has(w)) return capitalize(w);
  }
  const selfRef = language === 'fa' ? /(?:^|\s)من\s/u.test(` ${lower} `) : /\b(?:i|i'll|i'm|let me)\b/.test(lower);
  return selfRef ? sentence.segment.speakerName : null;
}

/**
 * A short title from the meeting's weightiest terms: content words and two-word phrases,
 * weighted by how often they occur in central sentences. Verb forms are left out because a
 * title names topics ("Release, database migration and budget").
 */
export function titleTerms(sentences: readonly Sentence[], language: TextLanguage, max = 3): string[] {
  const weight = new Map<string, number>();
  const isTopic = (w: string): boolean =>
    contentTerms(w, language).length > 0 &&
    !FIRST_NAMES.has(w) &&
    (language !== 'en' || !/(?:ed|ing)$/.test(w) || w.length <= 4);
  for (const s of sentences) {
    const words = wordsOf(s.text);
    const gain = 1 + s.score;
    words.forEach((w, i) => {
      if (!isTopic(w)) return;
      // A lone word counts a little less than a phrase, so "database migration" beats "database".
      weight.set(w, (weight.get(w) ?? 0) + 0.8 * gain);
      const next = words[i + 1];
      if (next && isTopic(next)) weight.set(`${w} ${next}`, (weight.get(`${w} ${next}`) ?? 0) + gain);
    });
  }
  const picked: string[] = [];
  for (const [term] of [...weight].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))) {
    if (picked.length >= max) break;
    const words = term.split(' ');
    if (!picked.some((p) => p.split(' ').some((w) => words.includes(w)))) picked.push(term);
  }
  return picked;
}

/** Sentences that the template lists as questions, reading order, repeats dropped. */
export function questionSentences(sentences: readonly Sentence[], language: TextLanguage, max = 8): Sentence[] {
  return distinctSentences(
    sentences.filter((s) => isQuestion(s.text, language) && s.terms.length >= 2),
    max,
  );
}

/**
 * The first `max` sentences in reading order, skipping one that mostly repeats an earlier
 * pick (a decision restated at the end of a meeting is listed once).
 */
export function distinctSentences(sentences: readonly Sentence[], max: number): Sentence[] {
  const out: Sentence[] = [];
  for (const s of sentences) {
    if (out.length >= max) break;
    if (out.some((o) => overlap(o.terms, s.terms) >= 0.8)) continue;
    out.push(s);
  }
  return out;
}

function tfidf(terms: readonly string[], df: Map<string, number>, n: number): Map<string, number> {
  const v = new Map<string, number>();
  for (const t of terms) v.set(t, (v.get(t) ?? 0) + Math.log(1 + n / (df.get(t) ?? 1)));
  return v;
}

function cosine(a: Map<string, number>, b: Map<string, number>): number {
  let dot = 0;
  let na = 0;
  let nb = 0;
  for (const [t, x] of a) {
    na += x * x;
    const y = b.get(t);
    if (y) dot += x * y;
  }
  for (const y of b.values()) nb += y * y;
  return na && nb ? dot / Math.sqrt(na * nb) : 0;
}

function overlap(a: readonly string[], b: readonly string[]): number {
  const sa = new Set(a);
  const sb = new Set(b);
  let shared = 0;
  for (const t of sa) if (sb.has(t)) shared++;
  return shared / Math.max(1, Math.min(sa.size, sb.size));
}

function capitalize(word: string): string {
  return word.charAt(0).toUpperCase() + word.slice(1);
}
