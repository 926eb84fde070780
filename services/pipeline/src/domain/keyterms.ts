/**
 * Keyterm correction, pure. An offline decoder cannot be told the meeting's vocabulary, so
 * it writes near misses ("cooper netties" for "Kubernetes", "sarah" for "Sara"). This pulls
 * runs of decoded words toward the terms when they look and sound alike, and writes the term
 * with the owner's capitals. Short terms must match exactly (only the case changes): three
 * letters are too few to tell a near miss from a different word.
 */
import type { TimedWord } from './turns';

export interface KeytermRules {
  /** Combined similarity (0..1) a run of words needs to become the term. */
  minScore: number;
  /** Terms with fewer letters than this are only re-cased, never fuzzily matched. */
  minFuzzyLetters: number;
  /** Short terms (under 6 letters) need this much instead, because one letter is a lot. */
  minScoreShort: number;
}

export const DEFAULT_KEYTERM_RULES: KeytermRules = { minScore: 0.78, minFuzzyLetters: 4, minScoreShort: 0.86 };

interface Term {
  text: string;
  tokens: string[];
  letters: string;
  sound: string;
}

/** Replaces near-miss word runs with keyterms; words keep their times, a merged run spans its words. */
export function correctKeyterms<W extends TimedWord>(
  words: readonly W[],
  keyterms: readonly string[],
  rules: KeytermRules = DEFAULT_KEYTERM_RULES,
): W[] {
  const terms = prepareTerms(keyterms);
  if (terms.length === 0 || words.length === 0) return words.slice();
  const letters = words.map((w) => lettersOf(w.word));
  // Windows and their sound keys are shared by all terms: computed once, not once per term.
  const sounds = new Map<string, string>();
  const soundOf = (joined: string): string => {
    let key = sounds.get(joined);
    if (key === undefined) sounds.set(joined, (key = soundKey(joined)));
    return key;
  };
  const joins = new Map<number, string>();
  const joinedOf = (from: number, to: number): string => {
    const k = from * 8 + (to - from);
    let j = joins.get(k);
    if (j === undefined) joins.set(k, (j = letters.slice(from, to).join('')));
    return j;
  };
  const taken = new Array<boolean>(words.length).fill(false);
  const replacements = new Map<number, { to: number; term: Term }>();
  for (const term of terms) {
    const fuzzy = term.letters.length >= rules.minFuzzyLetters;
    const need = term.letters.length < 6 ? rules.minScoreShort : rules.minScore;
    const sizes = windowSizes(term, fuzzy);
    const candidates: Array<{ from: number; to: number; score: number }> = [];
    for (let i = 0; i < words.length; i++) {
      for (const size of sizes) {
        const to = i + size;
        if (to > words.length) continue;
        const joined = joinedOf(i, to);
        if (joined === '' || Math.abs(joined.length - term.letters.length) > Math.max(2, term.letters.length * 0.4))
          continue;
        if (isInflection(joined, term.letters)) continue;
        const score = joined === term.letters ? 1 : fuzzy ? similarity(joined, soundOf(joined), term, need) : 0;
        if (score >= need) candidates.push({ from: i, to, score });
      }
    }
    // Best match first, so "project appollo" wins over "the project appollo" for the same term.
    candidates.sort((a, b) => b.score - a.score || a.to - a.from - (b.to - b.from) || a.from - b.from);
    for (const c of candidates) {
      if (taken.slice(c.from, c.to).some(Boolean)) continue;
      for (let k = c.from; k < c.to; k++) taken[k] = true;
      replacements.set(c.from, { to: c.to, term });
    }
  }
  const out: W[] = [];
  for (let i = 0; i < words.length; i++) {
    const hit = replacements.get(i);
    if (!hit) {
      out.push(words[i]);
      continue;
    }
    out.push(...spreadTerm(words.slice(i, hit.to), hit.term));
    i = hit.to - 1;
  }
  return out;
}

/** The same correction over plain text (for transcripts that come without word times). */
export function correctKeytermsInText(
  text: string,
  keyterms: readonly string[],
  rules: KeytermRules = DEFAULT_KEYTERM_RULES,
): string {
  const tokens = text.split(/\s+/).filter(Boolean);
  const words = tokens.map((word, i) => ({ word, startMs: i, endMs: i + 1 }));
  return correctKeyterms(words, keyterms, rules)
    .map((w) => w.word)
    .join(' ');
}

/** How alike a decoded run and a term are, 0..1: spelling and sound, sound counting more. */
function similarity(joined: string, soundA: string, term: Term, need: number): number {
  const sounded =
    soundA === '' && term.sound === ''
      ? 1
      : 1 - levenshtein(soundA, term.sound) / Math.max(soundA.length, term.sound.length, 1);
  // Sound keys are short and cheap; most windows fail here before spelling is compared.
  if (0.4 + 0.6 * sounded < need) return 0;
  const spelled = 1 - levenshtein(joined, term.letters) / Math.max(joined.length, term.letters.length);
  return 0.4 * spelled + 0.6 * sounded;
}

/** "releases" next to the term "release" is the same word used in a sentence, not a near miss. */
function isInflection(joined: string, term: string): boolean {
  return joined !== term && joined.startsWith(term) && /^(s|es|ed|d|ing|er|ers)$/.test(joined.slice(term.length));
}

function windowSizes(term: Term, fuzzy: boolean): number[] {
  const n = term.tokens.length;
  if (!fuzzy) return [n];
  // Decoders split one long unknown word into several short known ones, never the reverse.
  const extra = term.letters.length >= 7 ? 2 : 1;
  const sizes: number[] = [];
  for (let s = Math.max(1, n - 1); s <= n + extra; s++) sizes.push(s);
  return sizes;
}

/** The term's tokens laid over the matched words' time span, each keeping its own share. */
function spreadTerm<W extends TimedWord>(run: W[], term: Term): W[] {
  const first = run[0];
  const startMs = first.startMs;
  const endMs = run[run.length - 1].endMs;
  const confidences = run.map((w) => w.confidence).filter((c): c is number => c !== undefined);
  const confidence = confidences.length ? Math.min(...confidences) : undefined;
  if (run.length === term.tokens.length) {
    return run.map((w, k) => ({ ...w, word: term.tokens[k] }));
  }
  const total = term.tokens.reduce((s, t) => s + t.length, 0);
  let at = startMs;
  return term.tokens.map((token, k) => {
    const to = k === term.tokens.length - 1 ? endMs : Math.round(at + ((endMs - startMs) * token.length) / total);
    const w = { ...first, word: token, startMs: at, endMs: to, ...(confidence === undefined ? {} : { confidence }) };
    at = to;
    return w;
  });
}

function prepareTerms(keyterms: readonly string[]): Term[] {
  const seen = new Set<string>();
  const terms: Term[] = [];
  for (const raw of keyterms) {
    const text = raw.trim().replace(/\s+/g, ' ');
    const letters = lettersOf(text);
    if (letters === '' || seen.has(letters)) continue;
    seen.add(letters);
    terms.push({ text, tokens: text.split(' '), letters, sound: soundKey(letters) });
  }
  // Longer terms first, so "Project Apollo" wins over "Apollo" for the same words.
  return terms.sort((a, b) => b.tokens.length - a.tokens.length || b.letters.length - a.letters.length);
}

/** Lowercase letters and digits only (any script), the form words are compared in. */
export function lettersOf(word: string): string {
  return word.toLowerCase().replace(/[^\p{L}\p{N}]/gu, '');
}

/**
 * A rough English sound key: spellings of one sound made equal, voicing pairs merged (a
 * decoder confuses b/p and d/t more than anything), vowels after the first letter dropped.
 * Non-Latin words pass through unchanged.
 */
export function soundKey(letters: string): string {
  if (!/^[a-z0-9]+$/.test(letters)) return letters;
  const s = letters
    .replace(/^kn|^gn|^pn|^wr/, (m) => m[1])
    .replace(/ph/g, 'f')
    .replace(/gh/g, '')
    .replace(/ck/g, 'k')
    .replace(/sch/g, 'sk')
    .replace(/c(?=[eiy])/g, 's')
    .replace(/[cqg]/g, 'k')
    .replace(/x/g, 'ks')
    .replace(/th/g, 't')
    .replace(/[zs]h?/g, 's')
    .replace(/dg/g, 'j')
    .replace(/[bp]/g, 'p')
    .replace(/[dt]/g, 't')
    .replace(/[vfw](?![aeiouy])/g, 'f')
    .replace(/v/g, 'f');
  const head = s[0];
  const tail = s.slice(1).replace(/[aeiouyhw]/g, '');
  return (head + tail).replace(/(.)\1+/g, '$1');
}

export function levenshtein(a: string, b: string): number {
  if (a === b) return 0;
  if (!a.length) return b.length;
  if (!b.length) return a.length;
  let prev = new Uint16Array(b.length + 1);
  let cur = new Uint16Array(b.length + 1);
  for (let j = 0; j <= b.length; j++) prev[j] = j;
  for (let i = 1; i <= a.length; i++) {
    cur[0] = i;
    const ca = a.charCodeAt(i - 1);
    for (let j = 1; j <= b.length; j++) {
      const sub = prev[j - 1] + (ca === b.charCodeAt(j - 1) ? 0 : 1);
      cur[j] = Math.min(prev[j] + 1, cur[j - 1] + 1, sub);
    }
    [prev, cur] = [cur, prev];
  }
  return prev[b.length];
}
