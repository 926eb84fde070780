/**
 * Search normalization (English and Persian): capitals, diacritics and the half-space are
 * ignored, Arabic letter forms become Persian ones, Persian and Arabic-Indic digits become Latin.
 * Text and query go through the same function, then a word matches anywhere inside a longer word.
 */
/**
 * After NFKD: ۀ (the ezafe heh, U+06C0) has become ە (U+06D5) and its hamza, ۂ (U+06C2) ہ (U+06C1)
 * and its hamza; the hamza goes with the diacritics and the letter left is written ه here, as
 * هٔ (ه with the hamza mark) already was.
 */
const ARABIC_TO_PERSIAN: Record<string, string> = {
  ي: 'ی',
  ى: 'ی',
  ئ: 'ی',
  ك: 'ک',
  ة: 'ه',
  ۀ: 'ه',
  ە: 'ه',
  ہ: 'ه',
  ھ: 'ه',
  ؤ: 'و',
  ٱ: 'ا',
};
/** The letters ARABIC_TO_PERSIAN rewrites (the stored search text's migration 0011 names them too). */
const ARABIC_FORMS = new RegExp(`[${Object.keys(ARABIC_TO_PERSIAN).join('')}]`, 'g');

/** Persian (۰-۹) and Arabic-Indic (٠-٩) digits as Latin ones. */
export function latinDigits(text: string): string {
  return text
    .replace(/[\u06f0-\u06f9]/g, (d) => String(d.charCodeAt(0) - 0x06f0))
    .replace(/[\u0660-\u0669]/g, (d) => String(d.charCodeAt(0) - 0x0660));
}

export function normalizeForSearch(text: string): string {
  return latinDigits(
    text
      .normalize('NFKD')
      .replace(/[\u0300-\u036f\u064b-\u065f\u0670\u06d6-\u06ed]/g, '')
      .replace(/[\u200b-\u200f\u2060\ufeff]/g, '')
      .replace(ARABIC_FORMS, (c) => ARABIC_TO_PERSIAN[c] ?? c)
      .replace(/\u0640/g, '')
      .toLowerCase(),
  );
}

/** The words of a query, normalized; empty when it has none (only spaces or punctuation). */
export function searchWords(q: string): string[] {
  return normalizeForSearch(q)
    .split(/[^\p{L}\p{N}]+/u)
    .filter((w) => w.length > 0);
}

/**
 * What search stores for a meeting, from its parts already normalized (each transcript turn, then
 * the title, then the digest): one line per part holding the tokens (split at spaces, tabs and
 * line breaks) that no earlier part had, in order of first appearance. A query word holds only
 * letters and digits (searchWords), so it appears inside the parts exactly when it appears inside
 * one of these tokens: matching is unchanged while the stored text is a fraction of a long
 * meeting's (words repeat). The line of a word's first token is the first part holding the word,
 * which is how the snippet's turn is found without reading the transcript (firstPartHolding).
 * The archive bench's loader computes the same in SQL.
 */
export function searchTokens(parts: string[]): string {
  const seen = new Set<string>();
  return parts
    .map((part) => {
      const fresh: string[] = [];
      for (const t of part.split(/[ \t\n\r]/)) {
        if (t === '' || seen.has(t)) continue;
        seen.add(t);
        fresh.push(t);
      }
      return fresh.join(' ');
    })
    .join('\n');
}

/** The index of the first part (line of searchTokens) holding one of `words`, or -1. */
export function firstPartHolding(stored: string, words: string[]): number {
  const lines = stored.split('\n');
  for (let i = 0; i < lines.length; i++) if (words.some((w) => lines[i].includes(w))) return i;
  return -1;
}
