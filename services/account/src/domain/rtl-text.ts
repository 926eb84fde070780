/**
 * Right-to-left lines for the PDF writer. pdfkit has no bidirectional algorithm: it wraps and
 * lays text out left to right, shaping word by word (fontkit reverses the glyphs of each
 * Arabic-script word, so single words come out right, but the words of a line stand in
 * left-to-right order). So a right-to-left paragraph is wrapped here and each line is drawn as
 * pieces from the right edge: right-to-left words one by one, runs of left-to-right words
 * (Latin, numbers) kept together and in their own order, as the Unicode bidi algorithm would
 * show them for a Persian paragraph. No I/O.
 */

const isArabicLetter = (c: string) => /\p{Script=Arabic}/u.test(c) && /\p{L}/u.test(c);

/** Whether a text is mostly right-to-left (more Arabic-script letters than Latin ones). */
export function isRtlText(text: string): boolean {
  const chars = [...text];
  const rtl = chars.filter(isArabicLetter).length;
  const ltr = chars.filter((c) => /\p{Script=Latin}/u.test(c)).length;
  return rtl > ltr;
}

/**
 * Greedy wrapping by words: each line is as many words as fit `maxWidth` (each measured with the
 * space after it); a word wider than a line gets a line of its own.
 */
export function wrapWords(words: readonly string[], maxWidth: number, widthOf: (text: string) => number): string[][] {
  const lines: string[][] = [];
  let line: string[] = [];
  let width = 0;
  for (const word of words) {
    const w = widthOf(`${word} `);
    if (line.length && width + w > maxWidth) {
      lines.push(line);
      line = [];
      width = 0;
    }
    line.push(word);
    width += w;
  }
  if (line.length) lines.push(line);
  return lines;
}

const DIGIT = '[0-9\\u0660-\\u0669\\u06f0-\\u06f9]';
// A number as bidi keeps it together: digits joined by a separator between digits (9:30, 1.5, 1/2).
const NUMBER = new RegExp(`${DIGIT}+(?:[:.,/\\u066b\\u066c]${DIGIT}+)*`, 'gu');
const STARTS_WITH_DIGIT = new RegExp(`^${DIGIT}`, 'u');

/** Whether the shaper lays a word out right to left: it holds an Arabic-script character (a letter or a Persian digit). */
const shapedRtl = (word: string) => /\p{Script=Arabic}/u.test(word);

/**
 * A right-to-left line as the pieces to draw from the right edge leftwards, in logical order.
 * Words with a Latin letter form left-to-right runs (numbers right after them join, as bidi
 * does). Each piece carries its space on its visual left: a piece shaped right to left has it at
 * its end (reversed to the left), any other at its start. A piece shaped right to left has its
 * numbers reversed in advance, so the shaper's reversal leaves them reading left to right.
 */
export function rtlPieces(words: readonly string[]): string[] {
  const pieces: string[] = [];
  let run: string[] = [];
  const flush = () => {
    if (run.length) pieces.push(` ${run.join(' ')}`);
    run = [];
  };
  for (const word of words) {
    const latin = /\p{Script=Latin}/u.test(word);
    if (latin || (run.length && !shapedRtl(word) && STARTS_WITH_DIGIT.test(word))) {
      run.push(word);
      continue;
    }
    flush();
    pieces.push(shapedRtl(word) ? `${word.replace(NUMBER, (n) => [...n].reverse().join(''))} ` : ` ${word}`);
  }
  flush();
  return pieces;
}
