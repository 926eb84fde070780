/**
 * Whitespace and case helpers shared by the name and vocabulary rules of several services
 * (series names, keyterms, memory notes), so that "the same text" means one thing everywhere.
 */

/** Every run of whitespace (line breaks, tabs and Unicode spaces included) becomes one space; ends trimmed. */
export function collapseWhitespace(s: string): string {
  return s.replace(/\s+/g, ' ').trim();
}

/**
 * A comparison key that ignores case: NFC first so that composed and decomposed letters match,
 * then upper before lower so that letters whose upper case is two letters (ß → SS) fold alike.
 */
export function caseKey(s: string): string {
  return s.normalize('NFC').toUpperCase().toLowerCase();
}

/** Length in Unicode code points, so that a letter outside the BMP (an emoji) counts as one character. */
export function charCount(s: string): number {
  return Array.from(s).length;
}

/**
 * The first control character (Unicode Cc) other than the whitespace ones (tab, line feed,
 * vertical tab, form feed, carriage return), or null. Format characters such as the half-space
 * (ZWNJ, U+200C) are not control characters and pass.
 */
export function firstControlChar(s: string): string | null {
  const m = /[\u0000-\u0008\u000E-\u001F\u007F-\u009F]/.exec(s);
  return m ? m[0] : null;
}

/** `U+0007` style, for messages that name an invisible character. */
export function codePointLabel(ch: string): string {
  return `U+${ch.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}`;
}
