/**
 * The contract's series name rule: whitespace runs (line breaks and tabs included) collapse to
 * one space, ends are trimmed, then 1 to 60 characters; any other control character is refused;
 * unique per owner ignoring case. No I/O.
 */
import { LIMITS } from '@mm/contract';
import { caseKey, charCount, codePointLabel, collapseWhitespace, firstControlChar } from '@mm/text';

export const SERIES_NAME_MAX_CHARS: number = LIMITS.seriesNameMaxChars;

/** A name that breaks the rule; the message names the problem. */
export class SeriesNameError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SeriesNameError';
  }
}

/** The name as saved, or SeriesNameError. Characters are Unicode code points (an emoji is one). */
export function normalizeSeriesName(raw: string): string {
  // Checked before collapsing: the collapse keeps only whitespace, so a control character would survive it anyway.
  const control = firstControlChar(raw);
  if (control) throw new SeriesNameError(`name contains the control character ${codePointLabel(control)}`);
  const name = collapseWhitespace(raw);
  if (name === '') throw new SeriesNameError('name is empty after trimming');
  const chars = charCount(name);
  if (chars > SERIES_NAME_MAX_CHARS)
    throw new SeriesNameError(`name is ${chars} characters long; at most ${SERIES_NAME_MAX_CHARS} are allowed`);
  return name;
}

/** The key two names of one owner clash on: "Weekly Sync" and "weekly  sync" are the same series name. */
export function seriesNameKey(name: string): string {
  return caseKey(collapseWhitespace(name));
}
