/**
 * Sentences and words of a transcript, for English and Persian, pure. Offline transcripts
 * carry no punctuation, so sentence breaks also come from what starts a new thought: a
 * question ("what is the status"), a decision ("we decided") or an action item.
 */

export type TextLanguage = 'en' | 'fa';

const EN_STOPWORDS = new Set(
  (
    "a about above after again against all also am an and any are aren't as at be because been before being below between both but by " +
    "can can't cannot could couldn't did didn't do does doesn't doing don't down during each few for from further get got had hadn't has hasn't have " +
    "haven't having he he'd he'll he's her here here's hers herself him himself his how how's i i'd i'll i'm i've if in into is isn't it it's its " +
    "itself just let let's like me more most mustn't my myself no nor not now of off on once only or other ought our ours ourselves out over own " +
    "really same shan't she she'd she'll she's should shouldn't so some such than that that's the their theirs them themselves then there there's " +
    "these they they'd they'll they're they've this those through to too under until up us very was wasn't we we'd we'll we're we've were weren't " +
    "what what's when when's where where's which while who who's whom why why's will with won't would wouldn't yeah yes okay ok you you'd you'll " +
    "you're you've your yours yourself yourselves um uh oh well thing things going go gonna want think know lot one two see make need said say " +
    'good morning afternoon evening everyone everybody hello hi hey thank thanks great bye please sure right alright let start ' +
    'next last today tomorrow yesterday week weeks month months year day days monday tuesday wednesday thursday friday saturday sunday ' +
    'almost many much first second new old big small little better best bad ready done short long high low'
  ).split(' '),
);

const FA_STOPWORDS = new Set(
  (
    'و در به از که این آن با را برای تا هم یا اما اگر چون نیز پس هر همه من ما تو شما او آنها ایشان است هست بود بودند شد شده شود ' +
    'می کرد کرده کند کنیم کنند کردیم داریم دارد دارند باید خیلی یک دو بله نه آره خب حالا دیگر روی بین بر چه چی کی کجا چرا چطور آیا ' +
    'ها های ای هستیم هستند نیست بودیم خواهد خواهیم'
  ).split(' '),
);

/** Lowercased words of a text (letters, digits, apostrophes; Persian half-space kept inside words). */
export function wordsOf(text: string): string[] {
  return text
    .toLowerCase()
    .replace(/[’‘]/g, "'")
    .split(/[^\p{L}\p{N}'\u200c]+/u)
    .map((w) => w.replace(/^'+|'+$/g, ''))
    .filter(Boolean);
}

export function isStopword(word: string, language: TextLanguage): boolean {
  return language === 'fa' ? FA_STOPWORDS.has(word) || word.length < 2 : EN_STOPWORDS.has(word) || word.length < 3;
}

/** Content words, crudely stemmed so "releases" and "release" count as one term. */
export function contentTerms(text: string, language: TextLanguage): string[] {
  return wordsOf(text)
    .filter((w) => !isStopword(w, language) && !/^\d+$/.test(w))
    .map((w) => (language === 'en' ? stemEn(w) : w.replace(/\u200c?(ها|های)$/u, '')));
}

function stemEn(word: string): string {
  if (word.length > 5 && word.endsWith('ing')) return word.slice(0, -3);
  if (word.length > 4 && word.endsWith('ied')) return `${word.slice(0, -3)}y`;
  if (word.length > 4 && word.endsWith('ed')) return word.slice(0, -2);
  if (word.length > 4 && word.endsWith('ies')) return `${word.slice(0, -3)}y`;
  if (word.length > 3 && word.endsWith('s') && !word.endsWith('ss')) return word.slice(0, -1);
  return word;
}

const EN_QUESTION_WORDS = /^(what|why|how|who|whom|whose|when|where|which)\b/;
// "do the review" is an instruction, "does the build pass" a question: bare "do" needs a pronoun.
const EN_AUX_QUESTION =
  /^(?:do\s+(?:you|we|i|they|he|she|it|anyone|anybody|someone|everyone|everybody)|(?:does|did|is|are|was|were|can|could|should|will|would|shall|have|has|may|might)\s+(?:you|we|i|they|he|she|it|there|this|that|these|those|the|a|an|anyone|anybody|someone|everyone|everybody|our|your|my|his|her|their))\b/;
const FA_QUESTION_WORDS = /^(آیا|چرا|چطور|چگونه|کی|کجا|چه|چی|کدام|چند|مگر)(\s|$)/u;

/** A question: ends with a question mark, or opens like one (decoders write no punctuation). */
export function isQuestion(sentence: string, language: TextLanguage): boolean {
  const s = sentence.trim().toLowerCase();
  if (/[?؟]["')\]]*$/.test(s)) return true;
  if (/[.!]$/.test(s)) return false;
  if (language === 'fa') return FA_QUESTION_WORDS.test(s);
  return EN_QUESTION_WORDS.test(s) || EN_AUX_QUESTION.test(s);
}

// Phrases that open a new thought in unpunctuated speech; splitting before them keeps a
// decision or question from being buried in the greeting that preceded it.
const EN_BREAKS = [
  /\b(?:what|how|why|when|where|who) (?:is|are|was|were|do|does|did|can|could|should|will|would|about)\b/g,
  /\b(?:do|does|did|can|could|should|will|would|is|are) (?:you|we|they|anyone|everyone)\b/g,
  /\bwe (?:have )?(?:decided|agreed|settled|concluded)\b/g,
  /\b(?:the )?decision (?:is|was)\b/g,
  /\baction items?\b/g,
  /\b(?:thank you|thanks) (?:all|everyone|everybody)\b/g,
];
const FA_BREAKS = [
  /(?:^|\s)(?:آیا|چرا|چطور)\s/gu,
  /(?:^|\s)(?:تصمیم گرفتیم|قرار شد|توافق کردیم)/gu,
  /(?:^|\s)(?:کار بعدی|اقدام)\s/gu,
];

// An opening greeting is its own sentence, even unpunctuated ("good morning everyone let us start").
const EN_GREETING =
  /^(?:good (?:morning|afternoon|evening)|hello|hi|hey)(?: (?:everyone|everybody|all|team|folks))?[,!.]?(?=\s+\S+\s+\S+\s+\S+)/i;

/** Splits a segment's text into sentences, each a verbatim substring (trimmed) of the text. */
export function splitSentences(text: string, language: TextLanguage): string[] {
  const clean = text.trim();
  if (clean === '') return [];
  const greeting = language === 'en' ? EN_GREETING.exec(clean) : null;
  if (greeting) return [greeting[0], ...splitSentences(clean.slice(greeting[0].length), language)];
  const punctuated = clean.match(/[^.!?؟…]+(?:[.!?؟…]+["')\]]*|$)/g) ?? [clean];
  const out: string[] = [];
  for (const part of punctuated) {
    const piece = part.trim();
    if (!piece) continue;
    // A piece that already ends in punctuation was delimited by the writer; trust it.
    if (/[.!?؟…]["')\]]*$/.test(piece)) out.push(piece);
    else out.push(...splitAtBreaks(piece, language));
  }
  return out.filter((s) => /[\p{L}\p{N}]/u.test(s));
}

function splitAtBreaks(text: string, language: TextLanguage): string[] {
  const cuts = new Set<number>();
  const lower = text.toLowerCase();
  for (const pattern of language === 'fa' ? FA_BREAKS : EN_BREAKS) {
    pattern.lastIndex = 0;
    for (let m = pattern.exec(lower); m; m = pattern.exec(lower)) {
      const at = m.index + (m[0].length - m[0].trimStart().length);
      // Never leave a fragment of one or two words behind.
      const before = text.slice(0, at).trim().split(/\s+/).filter(Boolean).length;
      if (at > 0 && before >= 3) cuts.add(at);
    }
  }
  const points = [...cuts].sort((a, b) => a - b);
  const parts: string[] = [];
  let from = 0;
  for (const at of points) {
    const part = text.slice(from, at).trim();
    if (part.split(/\s+/).length >= 3) {
      parts.push(part);
      from = at;
    }
  }
  parts.push(text.slice(from).trim());
  return parts.filter(Boolean);
}
