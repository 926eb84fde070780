/**
 * The contract's keyterm rules (account and series vocabulary), as one pure function both the
 * account and the series service use, so the two routes can never disagree.
 */
import { caseKey, charCount, codePointLabel, collapseWhitespace, firstControlChar } from './whitespace';

/** Limits of the contract (Limits: keyterms at most 100 terms, each 1 to 49 characters and 5 words). */
export const KEYTERM_RULES = {
  maxTerms: 100,
  maxChars: 49,
  maxWords: 5,
  forbiddenChars: ['<', '>', '{', '}', '[', ']', '\\'],
} as const;

/** A broken keyterm rule; `message` names the first problem, `index` the term (null for the list). */
export class KeytermRuleError extends Error {
  constructor(
    message: string,
    readonly index: number | null,
  ) {
    super(message);
    this.name = 'KeytermRuleError';
  }
}

const quote = (s: string) => JSON.stringify(s.length > 60 ? `${s.slice(0, 57)}...` : s);

/** The key two terms are "the same term" by: whitespace-collapsed, case ignored. */
export function keytermKey(term: string): string {
  return caseKey(collapseWhitespace(term));
}

/**
 * Applies the term rules in order and returns the terms as saved: each trimmed with whitespace
 * runs collapsed to one space, in the order given. Throws KeytermRuleError naming the first
 * problem: too many terms, then term by term (not a string, control character, forbidden
 * character, empty, too long, too many words, a repeat of an earlier term ignoring case).
 */
export function normalizeKeyterms(terms: unknown[]): string[] {
  if (terms.length > KEYTERM_RULES.maxTerms) {
    throw new KeytermRuleError(
      `keyterms has ${terms.length} terms; at most ${KEYTERM_RULES.maxTerms} are allowed`,
      null,
    );
  }
  const seen = new Map<string, number>();
  return terms.map((raw, i) => {
    const at = `keyterms[${i}]`;
    if (typeof raw !== 'string') throw new KeytermRuleError(`${at} must be a string`, i);
    const control = firstControlChar(raw);
    // Postgres refuses NUL in text and no vocabulary needs an invisible control character.
    if (control) throw new KeytermRuleError(`${at} contains the control character ${codePointLabel(control)}`, i);
    const forbidden = KEYTERM_RULES.forbiddenChars.find((c) => raw.includes(c));
    if (forbidden) {
      throw new KeytermRuleError(
        `${at} (${quote(raw)}) contains "${forbidden}"; none of ${KEYTERM_RULES.forbiddenChars.join(' ')} is allowed`,
        i,
      );
    }
    const term = collapseWhitespace(raw);
    if (term === '') throw new KeytermRuleError(`${at} is empty after trimming`, i);
    const chars = charCount(term);
    if (chars > KEYTERM_RULES.maxChars) {
      throw new KeytermRuleError(
        `${at} (${quote(term)}) is ${chars} characters long; at most ${KEYTERM_RULES.maxChars} are allowed`,
        i,
      );
    }
    const words = term.split(' ').length;
    if (words > KEYTERM_RULES.maxWords) {
      throw new KeytermRuleError(
        `${at} (${quote(term)}) has ${words} words; at most ${KEYTERM_RULES.maxWords} are allowed`,
        i,
      );
    }
    const key = keytermKey(term);
    const earlier = seen.get(key);
    if (earlier !== undefined) {
      throw new KeytermRuleError(
        `${at} (${quote(term)}) repeats keyterms[${earlier}]; no term may appear twice (case is ignored)`,
        i,
      );
    }
    seen.set(key, i);
    return term;
  });
}
