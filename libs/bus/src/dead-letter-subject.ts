/** Prefix of every dead letter's subject (the DEADLETTER stream takes `deadletter.>`). */
export const DEAD_LETTER_PREFIX = 'deadletter.';

/**
 * The subject a dead letter is written to: `deadletter.by-<service>.<subject>`. The broker lets a
 * service write only its own name there, and only for the subjects of its rows of the table, so
 * the subject itself (not a header the writer chose) says who dead-lettered what.
 */
export const deadLetterSubject = (by: string, subject: string) => `${DEAD_LETTER_PREFIX}by-${by}.${subject}`;

/** The writer and the original subject of a dead letter's subject; null for any other shape (an older release's letter). */
export function parseDeadLetterSubject(wire: string): { by: string; subject: string } | null {
  const m = /^deadletter\.by-([a-z]+)\.(.+)$/.exec(wire);
  return m ? { by: m[1], subject: m[2] } : null;
}
