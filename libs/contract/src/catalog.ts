/**
 * The catalogs of the public contract: scopes, rate classes, error codes, enums and limits.
 * Everything that checks, validates or documents the API reads these; nothing restates them.
 */

/** The eight token scopes, in catalog order (the order `token.scopes` is answered in). */
export const SCOPES = [
  'recordings:read',
  'recordings:write',
  'recordings:query',
  'series:read',
  'series:write',
  'series:query',
  'account:read',
  'account:write',
] as const;
export type Scope = (typeof SCOPES)[number];

export const SWITCHES = ['API_WRITE_ENABLED', 'API_QUERY_ENABLED'] as const;
export type Switch = (typeof SWITCHES)[number];

/** The rollout switch that governs each scope; a scope absent here is never switched off. */
export const SCOPE_SWITCH: Partial<Record<Scope, Switch>> = {
  'recordings:write': 'API_WRITE_ENABLED',
  'series:write': 'API_WRITE_ENABLED',
  'account:write': 'API_WRITE_ENABLED',
  'recordings:query': 'API_QUERY_ENABLED',
  'series:query': 'API_QUERY_ENABLED',
};

/** Scopes whose routes can spend minutes (the token daily cap applies to tokens holding one). */
export const SPENDING_SCOPES: readonly Scope[] = ['recordings:write', 'recordings:query', 'series:query'];

export const RATE_WINDOW_SECONDS = 600;
export const RATE_CLASSES = {
  read: { requests: 600, windowSeconds: RATE_WINDOW_SECONDS },
  submit: { requests: 30, windowSeconds: RATE_WINDOW_SECONDS },
  search: { requests: 120, windowSeconds: RATE_WINDOW_SECONDS },
  ask: { requests: 30, windowSeconds: RATE_WINDOW_SECONDS },
  settings: { requests: 60, windowSeconds: RATE_WINDOW_SECONDS },
} as const;
export type RateClass = keyof typeof RATE_CLASSES;
export const RATE_CLASS_NAMES = Object.keys(RATE_CLASSES) as RateClass[];

/** Every error code of the contract with its HTTP status. */
export const ERROR_CODES = {
  UNAUTHORIZED: 401,
  TOKEN_NOT_ACCEPTED: 401,
  TOKENS_DISABLED: 401,
  TOKEN_INVALID: 401,
  DEVELOPER_MODE_OFF: 403,
  RATE_LIMITED: 429,
  TOKEN_SCOPE: 403,
  SCOPE_DISABLED: 403,
  PENDING_APPROVAL: 403,
  SCOPE_UNAVAILABLE: 400,
  TOKEN_REQUIRED: 400,
  VALIDATION: 400,
  NOT_FOUND: 404,
  INTERNAL: 500,
  INTERNAL_ERROR: 500,
  INVALID_AUDIO: 400,
  AUDIO_INCOMPLETE: 400,
  UPLOAD_TOO_LARGE: 413,
  RECORDING_TOO_LONG: 413,
  VIDEO_UPLOAD_DISABLED: 409,
  VIDEO_UNAVAILABLE: 503,
  VIDEO_NO_AUDIO: 400,
  VIDEO_UNREADABLE: 400,
  ATTACHMENT_TYPE: 400,
  ATTACHMENT_TOO_LARGE: 413,
  DAILY_LIMIT_REACHED: 429,
  INSUFFICIENT_MINUTES: 402,
  TOKEN_DAILY_CAP: 429,
  IDEMPOTENCY_KEY_IN_USE: 409,
  UPLOAD_IN_PROGRESS: 503,
  NOT_NAMING: 409,
  NOT_FAILED: 409,
  NOT_READY: 409,
  ASK_DISABLED: 409,
  ASK_NOT_READY: 409,
  PRICE_ABOVE_MAX: 409,
  SERIES_ASK_TOO_FEW: 409,
  GENERATE_FAILED: 502,
  SERIES_LIMIT: 409,
  SERIES_NAME_TAKEN: 409,
  MEMORY_DISABLED: 409,
  MEMORY_DUPLICATE: 409,
  CURSOR_EXPIRED: 410,
} as const;
export type ErrorCode = keyof typeof ERROR_CODES;

export const RECORDING_KINDS = ['MEETING', 'LECTURE', 'INTERVIEW', 'VOICE_MEMO', 'CALL'] as const;
export type RecordingKind = (typeof RECORDING_KINDS)[number];
export const RECORDING_STATUSES = ['QUEUED', 'TRANSCRIBING', 'NAMING', 'GENERATING', 'READY', 'FAILED'] as const;
export type RecordingStatus = (typeof RECORDING_STATUSES)[number];
export const FAILURE_CODES = ['TRANSCRIBE_FAILED', 'GENERATE_FAILED', 'NO_SPEECH', 'AUDIO_CORRUPT'] as const;
export type FailureCode = (typeof FAILURE_CODES)[number];
/** Failures no retry can help (the contract: `retryable` false); the pipeline does not retry them either. */
export const FINAL_FAILURE_CODES = ['NO_SPEECH', 'AUDIO_CORRUPT'] as const satisfies readonly FailureCode[];
/** Whether a retry may help a failure (`error.retryable`). */
export const isRetryable = (code: string): boolean => !(FINAL_FAILURE_CODES as readonly string[]).includes(code);
export const EVENT_TYPES = [
  'recording.created',
  'recording.naming_required',
  'recording.ready',
  'recording.failed',
  'recording.updated',
  'recording.deleted',
] as const;
export type EventType = (typeof EVENT_TYPES)[number];
export const UPDATE_CHANGES = [
  'regenerated',
  'renamed',
  'transcript_edited',
  'speakers_renamed',
  'series_changed',
  'restored',
] as const;
export type UpdateChange = (typeof UPDATE_CHANGES)[number];
export const NAMING_MODES = ['AUTO', 'FORCE_ON', 'FORCE_OFF'] as const;
export type NamingMode = (typeof NAMING_MODES)[number];
export const OUTPUT_LANGUAGES = ['MATCH', 'FA', 'EN'] as const;
export type OutputLanguage = (typeof OUTPUT_LANGUAGES)[number];
export const TITLE_STYLES = ['SESSION', 'TOPIC'] as const;
export type TitleStyle = (typeof TITLE_STYLES)[number];
export const DATE_CALENDARS = ['AUTO', 'JALALI', 'GREGORIAN'] as const;
export type DateCalendar = (typeof DATE_CALENDARS)[number];
export const MEMORY_CATEGORIES = ['ABOUT_YOU', 'PEOPLE', 'TERMS'] as const;
export type MemoryCategory = (typeof MEMORY_CATEGORIES)[number];
export const UI_LOCALES = ['en', 'fa'] as const;
export type UiLocale = (typeof UI_LOCALES)[number];
export const TOKEN_EXPIRY_DAYS = [30, 90, 365] as const;
/** How the service received a meeting (bundle `recording.source`): recorded in the app, uploaded in the app, or sent with a token. */
export const RECORDING_SOURCES = ['app', 'upload', 'api'] as const;
export type RecordingSource = (typeof RECORDING_SOURCES)[number];
/** The caller's relation to a series or to a meeting of one: `owner`, or `member` of a joined series. */
export const ACCESS_ROLES = ['owner', 'member'] as const;
export type AccessRole = (typeof ACCESS_ROLES)[number];
/** The `naming` part of submitRecording. */
export const SUBMIT_NAMING_OPTIONS = ['default', 'skip'] as const;
export type SubmitNaming = (typeof SUBMIT_NAMING_OPTIONS)[number];
/** Digest section kinds the contract names today; clients ignore kinds they do not know. */
export const DIGEST_SECTION_KINDS = [
  'summary',
  'decision_list',
  'action_item_list',
  'key_point_list',
  'question_list',
] as const;
export type DigestSectionKind = (typeof DIGEST_SECTION_KINDS)[number];

/** Numeric limits the contract states. */
/**
 * The packs of minutes the app's wallet sells, when the install sells them (APP_PURCHASES=direct on
 * the account service). The admin API's purchase takes any whole number; the app offers these.
 */
export const APP_PURCHASE_PACKS = [60, 300, 1000] as const;
/** The key an app purchase form names itself by (a UUID made with the page): sent twice, it buys once. */
export const APP_PURCHASE_KEY_PATTERN = '^[A-Za-z0-9_-]{16,64}$';

export const LIMITS = {
  activeTokensPerAccount: 10,
  seriesPerAccount: 50,
  keytermsMax: 100,
  keytermMaxChars: 49,
  keytermMaxWords: 5,
  seriesNameMaxChars: 60,
  questionMaxChars: 500,
  searchQueryMaxChars: 200,
  searchLimitMax: 50,
  searchLimitDefault: 20,
  listLimitMax: 100,
  listLimitDefault: 20,
  eventsLimitMax: 500,
  eventsLimitDefault: 100,
  idempotencyKeyMin: 8,
  idempotencyKeyMax: 64,
  memoryNoteMaxChars: 1000,
  meetingAskCitationsMax: 3,
  seriesAskCitationsMax: 5,
  seriesAskMinMeetings: 2,
  eventsRetentionDays: 30,
  recordedAtMaxFutureMinutes: 5,
  recordedAtMinYear: 2000,
  attachmentMaxMb: 10,
  dailyMinuteCapMin: 1,
  dailyMinuteCapMax: 100000,
  keytermSurchargePercent: 20,
  recordingTitleMaxChars: 200,
  snippetMaxChars: 200,
  idMaxChars: 64,
  cursorMaxChars: 64,
} as const;

/**
 * The gateway's checks, in the order it runs them, that any token request can meet before
 * reaching its service (TOKEN_NOT_ACCEPTED only answers app-only routes and is left out).
 * TOKEN_SCOPE applies to routes with scopes, SCOPE_DISABLED to routes with a switched scope.
 */
export const GATEWAY_CHECK_CODES = [
  'UNAUTHORIZED',
  'TOKENS_DISABLED',
  'TOKEN_INVALID',
  'DEVELOPER_MODE_OFF',
  'RATE_LIMITED',
  'TOKEN_SCOPE',
  'SCOPE_DISABLED',
  'PENDING_APPROVAL',
] as const satisfies readonly ErrorCode[];

/** Characters a keyterm may not contain. */
export const KEYTERM_FORBIDDEN_CHARS = ['<', '>', '{', '}', '[', ']', '\\'] as const;

/** The cookie a signed-in browser of the app carries; whoami answers TOKEN_REQUIRED to it. */
export const APP_SESSION_COOKIE = 'mm_session';
