/**
 * The command line's exit codes, one per kind of error, so scripts can branch without parsing.
 * The contract's code decides the kind (never the message). Pure.
 */
export const EXIT = {
  OK: 0,
  /** Unexpected failure of the command line itself. */
  UNEXPECTED: 1,
  /** Bad command line: unknown command or option, missing argument, no login. */
  USAGE: 2,
  /** The token is missing, unknown, revoked, expired, or tokens are off (401, DEVELOPER_MODE_OFF). */
  AUTH: 3,
  /** The token lacks the scope, or the access is switched off for now (TOKEN_SCOPE, SCOPE_DISABLED, PENDING_APPROVAL). */
  FORBIDDEN: 4,
  /** Nothing the token can reach has that id (404). */
  NOT_FOUND: 5,
  /** The request must change: validation, audio, attachment, key or name errors (400, 413, IDEMPOTENCY_KEY_IN_USE). */
  INVALID: 6,
  /** Money or limits: INSUFFICIENT_MINUTES, TOKEN_DAILY_CAP, DAILY_LIMIT_REACHED, PRICE_ABOVE_MAX. */
  LIMIT: 7,
  /** RATE_LIMITED: wait Retry-After seconds. */
  RATE_LIMITED: 8,
  /** The meeting or series is not in a state for this (NOT_READY, ASK_NOT_READY, NOT_NAMING, other 409s). */
  STATE: 9,
  /** The service failed or could not be reached (5xx, network). Try again later. */
  UNAVAILABLE: 10,
  /** `submit --wait`, `wait`: a meeting ended FAILED. */
  MEETING_FAILED: 11,
  /** `submit --wait`, `wait`: a meeting waits at NAMING for a person (hours, or no end); its naming URL is printed. */
  NAMING: 12,
  /** submit, wait, events --follow stopped by the parent going away (as SIGHUP would: 128 + 1). */
  PARENT_GONE: 129,
  /** submit, wait, events --follow stopped by SIGINT (128 + 2), after printing what is known. */
  SIGINT: 130,
  /** submit, wait, events --follow stopped by SIGTERM (128 + 15), after printing what is known. */
  SIGTERM: 143,
} as const;

/**
 * When several files or meetings fail differently, the exit code of the one that matters most:
 * what stops the whole run (usage, login, scope, money, rate, the service) before what concerns one
 * file (the request, not found, its state, a FAILED meeting, a meeting waiting at NAMING).
 */
const RELEVANCE: readonly number[] = [
  EXIT.USAGE,
  EXIT.AUTH,
  EXIT.FORBIDDEN,
  EXIT.LIMIT,
  EXIT.RATE_LIMITED,
  EXIT.UNAVAILABLE,
  EXIT.UNEXPECTED,
  EXIT.INVALID,
  EXIT.NOT_FOUND,
  EXIT.STATE,
  EXIT.MEETING_FAILED,
  EXIT.NAMING,
];

/** The exit code of a run of several items: OK when all are OK, else the most relevant one's. */
export function mostRelevantExit(codes: readonly number[]): number {
  const failed = codes.filter((c) => c !== EXIT.OK);
  if (failed.length === 0) return EXIT.OK;
  const rank = (c: number) => (RELEVANCE.includes(c) ? RELEVANCE.indexOf(c) : RELEVANCE.length);
  return failed.reduce((best, c) => (rank(c) < rank(best) ? c : best));
}

const LIMIT_CODES = new Set(['INSUFFICIENT_MINUTES', 'TOKEN_DAILY_CAP', 'DAILY_LIMIT_REACHED', 'PRICE_ABOVE_MAX']);
const FORBIDDEN_CODES = new Set(['TOKEN_SCOPE', 'SCOPE_DISABLED', 'PENDING_APPROVAL']);

/** The exit code of an API error by its contract code and HTTP status. */
export function exitCodeOf(code: string, status: number): number {
  if (status === 401 || code === 'DEVELOPER_MODE_OFF') return EXIT.AUTH;
  if (FORBIDDEN_CODES.has(code)) return EXIT.FORBIDDEN;
  if (LIMIT_CODES.has(code)) return EXIT.LIMIT;
  if (code === 'RATE_LIMITED') return EXIT.RATE_LIMITED;
  if (status === 404) return EXIT.NOT_FOUND;
  if (
    status === 400 ||
    status === 413 ||
    code === 'IDEMPOTENCY_KEY_IN_USE' ||
    code === 'VIDEO_UPLOAD_DISABLED' ||
    code === 'CURSOR_EXPIRED'
  )
    return EXIT.INVALID;
  if (status === 409) return EXIT.STATE;
  if (status >= 500) return EXIT.UNAVAILABLE;
  return EXIT.UNEXPECTED;
}
