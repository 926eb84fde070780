/**
 * Words of a digest for memory learning, English and Persian. No I/O.
 * (The pipeline keeps a similar list for its own scoring; a shared one belongs in libs/text.)
 */

export type DigestLanguage = 'en' | 'fa';

const EN_STOPWORDS = new Set(
  (
    'a about above after again against all also am an and any are as at be because been before being below between both but by can cannot ' +
    'could did do does doing down during each few for from further get got had has have having he her here hers him his how i if in into is ' +
    'it its itself just let like me more most my no nor not now of off on once only or other our ours out over own really same she should so ' +
    'some such than that the their theirs them then there these they this those through to too under until up us very was we were what when ' +
    'where which while who whom why will with would yeah yes okay you your yours um uh oh well thing things going gonna want think know lot ' +
    'one two see make need said say good morning afternoon evening everyone everybody hello thank thanks great please sure right alright ' +
    'start next last today tomorrow yesterday week weeks month months year day days almost many much first second new old big small little ' +
    'better best bad ready done short long high low meeting none noted weekly daily monthly quarterly ' +
    // The kinds' names: a digest with nothing to title is titled by its kind.
    'lecture interview voice memo call'
  ).split(' '),
);

const FA_STOPWORDS = new Set(
  (
    'و در به از که این آن با را برای تا هم یا اما اگر چون نیز پس هر همه من ما تو شما او آنها ایشان است هست بود بودند شد شده شود ' +
    'می کرد کرده کند کنیم کنند کردیم داریم دارد دارند باید خیلی یک دو بله نه آره خب حالا دیگر روی بین بر چه چی کی کجا چرا چطور آیا ' +
    'ها های ای هستیم هستند نیست بودیم خواهد خواهیم امروز فردا دیروز ' +
    // The kinds' names: a digest with nothing to title is titled by its kind.
    'جلسه درس‌گفتار مصاحبه یادداشت صوتی تماس'
  ).split(' '),
);

/** English weekday and month names: capitalized mid-sentence, yet never a person. */
export const CALENDAR_WORDS: ReadonlySet<string> = new Set(
  'monday tuesday wednesday thursday friday saturday sunday january february march april may june july august september october november december'.split(
    ' ',
  ),
);

/** A word of the digest with where it stands in its sentence. */
export interface PlacedWord {
  /** As written (case kept). */
  text: string;
  /** Index of the sentence within the whole digest. */
  sentence: number;
  /** Index of the word within its sentence (0 opens it). */
  position: number;
  /** A comma directly follows ("Sara, please send ..."). */
  beforeComma: boolean;
}

/** Splits texts into sentences and words (letters, digits, apostrophes; the Persian half-space stays inside a word). */
export function placedWords(texts: readonly string[]): PlacedWord[] {
  const out: PlacedWord[] = [];
  let sentence = 0;
  for (const text of texts) {
    for (const part of text.split(/(?<=[.!?؟…;:])\s+|\n+/u)) {
      let position = 0;
      for (const m of part.replace(/[’‘]/g, "'").matchAll(/[\p{L}\p{N}][\p{L}\p{M}\p{N}'\u200c]*/gu)) {
        const text = m[0].replace(/'+$/, '');
        out.push({
          text,
          sentence,
          position: position++,
          beforeComma: /^\s*[,،]/u.test(part.slice(m.index! + m[0].length)),
        });
      }
      sentence++;
    }
  }
  return out;
}

export function isStopword(word: string, language: DigestLanguage): boolean {
  const w = word.toLowerCase();
  return language === 'fa' ? FA_STOPWORDS.has(w) || w.length < 2 : EN_STOPWORDS.has(w) || w.length < 3;
}

/** A word whose letters make it vocabulary on its own: an acronym (NATS), inner capitals (GitHub) or letters with digits (S3). */
export function isKeytermLike(word: string): boolean {
  if (!/\p{L}/u.test(word) || word.length < 2) return false;
  return /^\p{Lu}{2,}\d*$/u.test(word) || /\p{Ll}\p{Lu}/u.test(word) || (/\p{L}/u.test(word) && /\d/.test(word));
}

/** One capital then lower-case letters: how a name is written in a cased text. */
export function isCapitalized(word: string): boolean {
  return /^\p{Lu}\p{Ll}+$/u.test(word);
}
