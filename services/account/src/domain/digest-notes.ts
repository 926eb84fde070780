/**
 * What a first digest teaches memory: people, terms and topics. Heuristics over the digest's
 * text, because the digest is all the account service sees of a meeting; the notes are hints
 * the owner can edit or delete. No I/O.
 */
import {
  CALENDAR_WORDS,
  isCapitalized,
  isKeytermLike,
  isStopword,
  placedWords,
  type DigestLanguage,
  type PlacedWord,
} from './digest-words';

/** The part of a digest section memory reads: a text, or items that are texts or `{text, owner}`. */
export interface SectionLike {
  kind: string;
  title?: string;
  text?: unknown;
  items?: unknown;
}

export interface DigestForNotes {
  language: string;
  title: string | null;
  sections: readonly SectionLike[];
  speakers: readonly { name: string | null }[];
}

export interface DigestNotes {
  people: string[];
  terms: string[];
  topics: string[];
}

/** Topics kept per meeting: the few things it was most about. */
export const MAX_TOPICS = 3;
/** Recurring words kept per meeting as terms. */
export const MAX_RECURRING_TERMS = 5;
/** How often a plain word must recur in one digest to be a term. */
export const RECURRING_MIN = 3;

const TOPIC_PREFIX: Record<DigestLanguage, string> = { en: 'Works on: ', fa: 'کار روی: ' };

export function digestLanguage(language: string): DigestLanguage {
  return language === 'fa' ? 'fa' : 'en';
}

/** The texts of the sections in reading order (summary text, then list items). */
export function sectionTexts(sections: readonly SectionLike[]): string[] {
  const out: string[] = [];
  for (const s of sections) {
    if (typeof s.text === 'string' && s.text.trim()) out.push(s.text);
    if (Array.isArray(s.items)) {
      for (const item of s.items) {
        const text =
          typeof item === 'string' ? item : item && typeof item === 'object' ? (item as { text?: unknown }).text : null;
        if (typeof text === 'string' && text.trim()) out.push(text);
      }
    }
  }
  return out;
}

/** Owners of action items, as the digest named them. */
function actionOwners(sections: readonly SectionLike[]): string[] {
  const owners: string[] = [];
  for (const s of sections) {
    if (!Array.isArray(s.items)) continue;
    for (const item of s.items) {
      const owner = item && typeof item === 'object' ? (item as { owner?: unknown }).owner : null;
      if (typeof owner === 'string' && owner.trim()) owners.push(owner.trim());
    }
  }
  return owners;
}

/**
 * People: the names given to speakers, owners of action items, and capitalized first names the
 * digest mentions. A capitalized word counts when it does not open its sentence (or opens it as
 * an address: "Sara, please ..."), is no weekday or month, is not the owner's vocabulary
 * (keyterms are written with capitals too) and is never written in lower case in the digest.
 */
export function digestPeople(d: DigestForNotes, knownTerms: readonly string[] = []): string[] {
  const people = [...d.speakers.map((s) => s.name?.trim() ?? '').filter(Boolean), ...actionOwners(d.sections)];
  if (digestLanguage(d.language) === 'fa') return people;
  const words = placedWords(sectionTexts(d.sections));
  const lower = new Set(words.filter((w) => w.text === w.text.toLowerCase()).map((w) => w.text));
  const vocabulary = new Set(knownTerms.map((t) => t.toLowerCase()));
  const known = new Set(people.map((p) => p.split(/\s+/)[0].toLowerCase()));
  for (const w of words) {
    if (!isCapitalized(w.text)) continue;
    const key = w.text.toLowerCase();
    if (CALENDAR_WORDS.has(key) || vocabulary.has(key) || lower.has(key)) continue;
    if (w.position === 0 && !w.beforeComma && !known.has(key)) continue;
    people.push(w.text);
  }
  return people;
}

/**
 * Terms: words that look like vocabulary (NATS, GitHub, S3), then plain words the digest keeps
 * coming back to (at least RECURRING_MIN times), most frequent first.
 */
export function digestTerms(d: DigestForNotes, people: readonly string[] = []): string[] {
  const language = digestLanguage(d.language);
  const words = placedWords(sectionTexts(d.sections));
  const names = new Set(people.flatMap((p) => p.toLowerCase().split(/\s+/)));
  const terms = words.filter((w) => isKeytermLike(w.text) && !names.has(w.text.toLowerCase())).map((w) => w.text);
  const counts = countPlain(words, language, names);
  const recurring = [...counts.entries()]
    .filter(([, c]) => c.count >= RECURRING_MIN)
    .sort((a, b) => b[1].count - a[1].count || a[1].first - b[1].first)
    .slice(0, MAX_RECURRING_TERMS)
    .map(([word]) => word);
  const seen = new Set<string>();
  return [...terms, ...recurring].filter((t) => !seen.has(t.toLowerCase()) && seen.add(t.toLowerCase()));
}

/**
 * The phrases of a title: digest titles list what the meeting was about ("Customer survey,
 * login problem and budget"), an owner's title names it ("Weekly standup"). Stopwords at either
 * end are dropped, capitalized words lowered (acronyms kept), names left out; at most 5 words.
 */
export function titlePhrases(
  title: string,
  language: DigestLanguage,
  names: ReadonlySet<string> = new Set(),
): string[] {
  const phrases: string[] = [];
  for (const part of title.split(/\s*[,،;:|]\s*|\s+(?:and|&|و)\s+/u)) {
    const words = part.split(/\s+/).filter(Boolean);
    while (words.length && isStopword(words[0], language)) words.shift();
    while (words.length && isStopword(words[words.length - 1], language)) words.pop();
    if (words.length === 0 || words.length > 5 || words.some((w) => names.has(w.toLowerCase()))) continue;
    phrases.push(words.map((w) => (isCapitalized(w) ? w.toLowerCase() : w)).join(' '));
  }
  return phrases;
}

/**
 * Topics (ABOUT_YOU): what the owner's meeting was about: the phrases of its title, then words
 * the summary comes back to (twice or more). Written as "Works on: customer survey" so the same
 * topic in another meeting strengthens the same note.
 */
export function digestTopics(d: DigestForNotes, people: readonly string[] = []): string[] {
  const language = digestLanguage(d.language);
  const names = new Set(people.flatMap((p) => p.toLowerCase().split(/\s+/)));
  const topics = d.title ? titlePhrases(d.title, language, names) : [];
  const covered = new Set(topics.flatMap((t) => t.toLowerCase().split(/\s+/)));
  const summary = placedWords(d.sections.filter((s) => s.kind === 'summary').flatMap((s) => sectionTexts([s])));
  const recurring = [...countPlain(summary, language, names).entries()]
    .filter(([word, c]) => c.count >= 2 && !covered.has(word))
    .sort((a, b) => b[1].count - a[1].count || a[1].first - b[1].first)
    .map(([word]) => word);
  return [...topics, ...recurring].slice(0, MAX_TOPICS).map((t) => `${TOPIC_PREFIX[language]}${t}`);
}

/** Everything a first digest teaches, ready for MemoryService.learn (which dedupes and caps). */
export function digestNotes(d: DigestForNotes, knownTerms: readonly string[] = []): DigestNotes {
  const people = digestPeople(d, knownTerms);
  return { people, terms: digestTerms(d, people), topics: digestTopics(d, people) };
}

/** Plain content words in lower case with their count and first position; names and vocabulary-like words left out. */
function countPlain(
  words: readonly PlacedWord[],
  language: DigestLanguage,
  names: ReadonlySet<string>,
): Map<string, { count: number; first: number }> {
  const counts = new Map<string, { count: number; first: number }>();
  words.forEach((w, i) => {
    const key = w.text.toLowerCase();
    if (isStopword(key, language) || /^\d+$/.test(key) || names.has(key) || isKeytermLike(w.text)) return;
    if (language === 'en' && isCapitalized(w.text) && w.position > 0) return;
    const c = counts.get(key) ?? { count: 0, first: i };
    c.count++;
    counts.set(key, c);
  });
  return counts;
}
