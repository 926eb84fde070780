/**
 * Sentences of spoken text, pure. The offline recognizer writes lower-case words with times and
 * no punctuation; a digest is read as prose. Sentence ends come from the silence between words
 * (a turn's `pausesMs`) and from words that open a new thought; each sentence is then written:
 * first letter capitalized, "i" as "I", weekdays capitalized, a full stop or a question mark at
 * the end. Text a writer (or a model) already punctuated or cased is left as it is.
 */
import { isQuestion, splitSentences, type TextLanguage } from './text-units';

export interface SentenceRules {
  /** A silence at least this long ends a sentence, whatever the words around it. */
  pauseMs: number;
  /** A shorter silence, at least this, ends one when the next words open a new thought ("so", a question). */
  cuePauseMs: number;
  /** A silence this long ends a sentence even after a word that cannot end one (the last word may be misheard). */
  hardPauseMs: number;
}

/**
 * Chosen on pocketsphinx's word times for real and flite speech with punctuated references
 * (docs/decisions.md, "Digest sentences from unpunctuated speech"). The decoder's words touch
 * except where it heard silence, and silences inside sentences reached 230 ms, so 300 ms ends a
 * sentence on its own; sentence ends were often shorter (40-190 ms), so with an opening word
 * after it any silence the decoder reports (its shortest is 30 ms) is enough. 600 ms ends one even
 * after "for" or "the": on the real-voice meetings no silence inside an utterance passed 360 ms,
 * while the recognizer drops or mishears last words ("to do for [them]", 950 ms before the next
 * speaker's words in a turn the diarizer merged).
 */
export const DEFAULT_SENTENCE_RULES: SentenceRules = { pauseMs: 300, cuePauseMs: 30, hardPauseMs: 600 };

/** After a silence these open a new thought; without one they are ordinary words ("and so on"). */
const EN_OPENERS =
  /^(?:so|okay|ok|alright|anyway|well|now|also|next|finally|and then|all right|thank you|thanks|hello|hi)\b/;
const FA_OPENERS = /^(?:خب|خوب|پس|بعد|حالا|ضمنا|ضمناً|در ضمن|ممنون|مرسی|سلام)(?:\s|$)/u;

// A sentence does not end on these: a pause after them is a speaker searching for the next word.
const EN_NO_END = wordSet(`
  a an the and or but nor of to in on at for with from by as into than that because if when while
  my your our their his her its this these those is are was were be been will would can could should
  must shall have has had do does did not no very um uh er erm i we you they he she it i'm we're
  you're they're let's what how why who which where`);
const FA_NO_END = wordSet('و یا اما که از به در با برای تا را این آن');

// One word may stand as a sentence only if it is one of these ("Okay. We ship on Friday.").
const EN_STANDALONE = wordSet('okay ok alright yes yeah yep no nope right sure thanks hello hi hey good great fine');

const EN_ASKING_VERB =
  '(?:is|are|was|were|do|does|did|can|could|should|would|will|shall|has|have|had' +
  '|about|if|else|much|many|long|often|far|exactly)';
const EN_WH_QUESTION = new RegExp(
  `^(?:(?:what|why|how|who|whom|whose|when|where|which)(?:'s|\\s+${EN_ASKING_VERB}\\b)` +
    '|why not\\b|how come\\b|who (?:wants|knows|needs|owns|takes)\\b)',
);

const EN_LEAD = /^(?:(?:so|okay|ok|and|but|well|now|alright|then|also)\s+)+(?=\S)/;

// "may" and "march" are left out: they are verbs far more often than months in speech.
const WEEKDAYS_AND_MONTHS = wordSet(`
  monday tuesday wednesday thursday friday saturday sunday
  january february april june july august september october november december`);

const SENTENCE_MARK = /[\p{L}\p{N}][.!?؟…]["')\]]*(?:\s|$)/u;
const OPENS_WITH_CAPITAL = /^["'(]?\p{Lu}/u;

/** Tokens of a turn's text: what `pausesMs` counts the gaps between. */
export function tokensOf(text: string): string[] {
  return text.split(/\s+/).filter(Boolean);
}

/**
 * The silence before every token of each turn but its first, in ms. A turn's text is its words
 * joined by spaces, in order, so the words are walked once; a word of several tokens (a keyterm
 * phrase) has no silence inside. A turn whose words cannot be matched gets no pauses.
 */
export function turnPauses(
  words: readonly { word: string; startMs: number; endMs: number }[],
  turns: readonly { text: string }[],
): number[][] {
  let at = 0;
  return turns.map((turn) => {
    const want = tokensOf(turn.text);
    const got: string[] = [];
    const pauses: number[] = [];
    let prevEnd: number | null = null;
    while (got.length < want.length && at < words.length) {
      const w = words[at++];
      const tokens = tokensOf(w.word);
      if (tokens.length === 0) continue;
      if (prevEnd !== null) pauses.push(Math.max(0, Math.round(w.startMs - prevEnd)));
      for (let k = 1; k < tokens.length; k++) pauses.push(0);
      got.push(...tokens);
      prevEnd = w.endMs;
    }
    return got.join(' ') === want.join(' ') ? pauses : [];
  });
}

/**
 * Whether a transcript was written with punctuation and case (a model's, or a person's edit):
 * then its sentences are its own. Decided over the whole transcript, since a recognizer's
 * keyterm ("NATS", "GitHub") may capitalize a word here and there; at least half the turns
 * must carry sentence punctuation or open with a capital.
 */
export function isWrittenTranscript(texts: readonly string[]): boolean {
  const turns = texts.map((t) => t.trim()).filter(Boolean);
  if (turns.length === 0) return false;
  const written = turns.filter((t) => SENTENCE_MARK.test(t) || OPENS_WITH_CAPITAL.test(t)).length;
  return written * 2 >= turns.length;
}

/**
 * Splits one turn of unpunctuated speech into sentences, each a run of its tokens joined by one
 * space: first at silences (`pausesMs`, one per gap between tokens; ignored when it no longer
 * matches the text, as after an edit), then at the word cues of `splitSentences`.
 */
export function spokenSentences(
  text: string,
  pausesMs: readonly number[] | undefined,
  language: TextLanguage,
  rules: SentenceRules = DEFAULT_SENTENCE_RULES,
): string[] {
  const tokens = tokensOf(text);
  if (tokens.length === 0) return [];
  const usable = pausesMs !== undefined && pausesMs.length === tokens.length - 1;
  const pieces = usable ? splitAtPauses(tokens, pausesMs, language, rules) : [tokens];
  return pieces.flatMap((piece) => splitSentences(piece.join(' '), language));
}

/** A sentence as a reader expects it: capitalized, "I" and weekdays in capitals, ended by "." or "?". */
export function writeSentence(sentence: string, language: TextLanguage): string {
  const words = tokensOf(sentence);
  if (words.length === 0) return '';
  let text = (language === 'en' ? words.map(writeWordEn) : words).join(' ');
  if (language === 'en') text = capitalizeFirst(text);
  if (/[.!?؟…]["')\]]*$/.test(text)) return text;
  const question = asksQuestion(text, language);
  return `${text}${question ? (language === 'fa' ? '؟' : '?') : '.'}`;
}

/**
 * A question by its opening words. Stricter than `isQuestion` for "wh" words, which open
 * statements too ("what we decided is ..."): they must be followed by a verb of asking.
 */
export function asksQuestion(sentence: string, language: TextLanguage): boolean {
  // "so what is the status": a discourse word before the question does not make it a statement.
  const s = sentence.trim().toLowerCase().replace(EN_LEAD, '');
  if (language === 'en' && /^(?:what|why|how|who|whom|whose|when|where|which)\b/.test(s)) return EN_WH_QUESTION.test(s);
  return isQuestion(s, language);
}

function writeWordEn(word: string): string {
  if (/^i(?:'(?:m|ll|ve|d))?$/.test(word)) return `I${word.slice(1)}`;
  return WEEKDAYS_AND_MONTHS.has(word) ? word.charAt(0).toUpperCase() + word.slice(1) : word;
}

function splitAtPauses(
  tokens: readonly string[],
  pauses: readonly number[],
  language: TextLanguage,
  rules: SentenceRules,
): string[][] {
  const noEnd = language === 'fa' ? FA_NO_END : EN_NO_END;
  const pieces: string[][] = [];
  let from = 0;
  for (let k = 1; k < tokens.length; k++) {
    const gap = pauses[k - 1];
    if (gap < rules.cuePauseMs || (gap < rules.hardPauseMs && noEnd.has(tokens[k - 1].toLowerCase()))) continue;
    const rest = tokens.slice(k).join(' ').toLowerCase();
    if (gap < rules.pauseMs && !opensThought(rest, language)) continue;
    // Never leave a lone word behind on either side unless it can stand alone ("Okay.").
    if (!canStand(tokens.slice(from, k), language) || !canStand(tokens.slice(k), language)) continue;
    pieces.push(tokens.slice(from, k));
    from = k;
  }
  pieces.push(tokens.slice(from));
  return pieces;
}

function opensThought(rest: string, language: TextLanguage): boolean {
  const opening = rest.split(' ').slice(0, 4).join(' ');
  return (language === 'fa' ? FA_OPENERS : EN_OPENERS).test(rest) || asksQuestion(opening, language);
}

function canStand(words: readonly string[], language: TextLanguage): boolean {
  if (words.length >= 2) return true;
  return language === 'en' ? EN_STANDALONE.has(words[0].toLowerCase()) : false;
}

function wordSet(words: string): ReadonlySet<string> {
  return new Set(words.split(/\s+/).filter(Boolean));
}

function capitalizeFirst(text: string): string {
  return text.replace(/^(\P{L}*)(\p{Ll})/u, (_, lead: string, c: string) => lead + c.toUpperCase());
}
