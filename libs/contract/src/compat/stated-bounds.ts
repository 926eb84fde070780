/**
 * Request bounds that openapi.json gained when every string was bounded (issue 25, OWASP API4),
 * each refusing only what API-CONTRACT.md never allowed: the compatibility check would call them
 * tightened, so each is accepted here by name, with the contract's limit that justifies it. The
 * list is reviewed like code; it matches the exact break line only (a later tightening of the same
 * field is still refused), and it is inert once the committed snapshot holds the bound.
 */
import { LIMITS } from '../catalog';
import { rawLengthOf } from '../schema-helpers';
import { ANSWER_CEILINGS } from '../schemas/common.schemas';

export interface StatedBound {
  /** The end of the break line's location: `application/json.question`, `header parameter Idempotency-Key`. */
  where: string;
  /** What the check reports: `maxLength tightened from none to 1000`. */
  change: string;
  /** The contract's limit that the new bound stays at or above. */
  because: string;
}

const raw = (limit: number): string => `maxLength tightened from none to ${rawLengthOf(limit)}`;
const TRIMMED = 'the raw value may be twice as long: room for the whitespace the service trims';
const dateTime = `maxLength tightened from none to ${ANSWER_CEILINGS.dateTimeChars}`;
const DATE_TIME = 'an ISO 8601 timestamp with an offset is 25 characters; 64 leave room for 38 digits of fraction';

export const STATED_BOUNDS: readonly StatedBound[] = [
  {
    where: 'application/json.question',
    change: raw(LIMITS.questionMaxChars),
    because: `question 1 to ${LIMITS.questionMaxChars} characters; ${TRIMMED}`,
  },
  {
    where: 'application/json.text',
    change: raw(LIMITS.memoryNoteMaxChars),
    because: `memory note at most ${LIMITS.memoryNoteMaxChars} characters; ${TRIMMED}`,
  },
  {
    where: 'application/json.name',
    change: raw(LIMITS.seriesNameMaxChars),
    because: `series name 1 to ${LIMITS.seriesNameMaxChars} characters; ${TRIMMED}`,
  },
  {
    where: 'application/json.keyterms[]',
    change: raw(LIMITS.keytermMaxChars),
    because: `keyterms each 1 to ${LIMITS.keytermMaxChars} characters; ${TRIMMED}`,
  },
  {
    where: 'application/json.idempotencyKey',
    change: raw(LIMITS.idempotencyKeyMax),
    because: `Idempotency-Key 8 to ${LIMITS.idempotencyKeyMax} characters; ${TRIMMED}`,
  },
  {
    where: 'header parameter Idempotency-Key',
    change: raw(LIMITS.idempotencyKeyMax),
    because: `Idempotency-Key 8 to ${LIMITS.idempotencyKeyMax} characters; ${TRIMMED}`,
  },
  {
    where: 'multipart/form-data.recordedAt',
    change: dateTime,
    because: `recordedAt is a timestamp (Conventions: ISO 8601); ${DATE_TIME}`,
  },
  {
    where: 'query parameter from',
    change: dateTime,
    because: `from is a timestamp (Conventions: ISO 8601); ${DATE_TIME}`,
  },
  { where: 'query parameter to', change: dateTime, because: `to is a timestamp (Conventions: ISO 8601); ${DATE_TIME}` },
];

/** Whether a break line of the openapi part is one of the stated bounds. */
export function isStatedBound(line: string): boolean {
  return STATED_BOUNDS.some(
    (b) =>
      line.endsWith(`${b.where}: ${b.change}`) && line.includes(' request body ') === !b.where.includes('parameter'),
  );
}
