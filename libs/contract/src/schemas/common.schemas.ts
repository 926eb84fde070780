/**
 * Building blocks shared by the resource schemas: the `schemaVersion` field, the response
 * wrapper, typed scalars (ids, URIs, timestamps, enums) and small shared objects.
 * Every builder takes the English and the Persian description of the field it makes.
 */
import { KEYTERM_FORBIDDEN_CHARS, LIMITS, RECORDING_KINDS } from '../catalog';
import { described as d, faDigits, nullable, openObject, rawLengthOf, type JsonSchema } from '../schema-helpers';

/** The largest int32, the ceiling of counts and of other integers that fit it. */
export const INT32_MAX = 2_147_483_647;

/**
 * Ceilings of what the service answers where the contract states no limit, so that every string,
 * integer and array of the description is bounded (OWASP API4): far above anything a meeting
 * produces, for a client sizing its buffers, never promises of size. Requests are bounded by the
 * contract's own limits instead (docs/decisions.md, "Bounded description").
 */
export const ANSWER_CEILINGS = {
  /** A name, label, heading, message or item of text: written through a JSON body of at most 1 MiB, or by an engine. */
  textChars: 1_048_576,
  /** A whole document: a transcript, a digest or a bundle as Markdown. */
  documentChars: 100_000_000,
  uriChars: 2_048,
  dateTimeChars: 64,
  /** A language code, an owner type, the kind of a section. */
  codeChars: 64,
  speakers: 10_000,
  segments: 10_000_000,
  sections: 1_000,
  sectionItems: 10_000,
  memoryNotes: 100_000,
  readableSeries: 100_000,
} as const;

/** `schemaVersion`: 1 on every successful JSON response of API v1. */
export const schemaVersionField = d(
  { type: 'integer', format: 'int32', const: 1, minimum: 1, maximum: 1 },
  'Version of the response shape; always 1 in API v1.',
  'نسخهٔ ساختار پاسخ؛ در نسخهٔ یک رابط همیشه ۱ است.',
);

/** A success response: an open object of `schemaVersion` plus the given fields, all required unless `required` says otherwise. */
export function responseSchema(
  properties: Record<string, JsonSchema>,
  en: string,
  fa: string,
  required?: string[],
): JsonSchema {
  return d(
    openObject(
      { schemaVersion: schemaVersionField, ...properties },
      required ? ['schemaVersion', ...required] : undefined,
    ),
    en,
    fa,
  );
}

/** An opaque identifier string (as the `{id}` path parameter takes it). */
export const idString = (en: string, fa: string): JsonSchema =>
  d({ type: 'string', minLength: 1, maxLength: LIMITS.idMaxChars }, en, fa);
/** A plain string; at most `ANSWER_CEILINGS.textChars` unless `extra` says less. */
export const text = (en: string, fa: string, extra: JsonSchema = {}): JsonSchema =>
  d({ type: 'string', maxLength: ANSWER_CEILINGS.textChars, ...extra }, en, fa);
/** An absolute URI. */
export const uri = (en: string, fa: string): JsonSchema =>
  d({ type: 'string', format: 'uri', maxLength: ANSWER_CEILINGS.uriChars }, en, fa);
/**
 * An ISO 8601 timestamp with an offset (RFC 3339 date-time). 64 characters leave room for 38
 * digits of a second's fraction (ISO 8601 leaves their number to the parties).
 */
export const dateTime = (en: string, fa: string): JsonSchema =>
  d({ type: 'string', format: 'date-time', maxLength: ANSWER_CEILINGS.dateTimeChars }, en, fa);
/** An integer (int32) not below `min`, at most `extra.maximum` or the int32 ceiling. */
export const integer = (min: number, en: string, fa: string, extra: JsonSchema = {}): JsonSchema =>
  d({ type: 'integer', format: 'int32', minimum: min, maximum: INT32_MAX, ...extra }, en, fa);
/**
 * An integer of minutes or milliseconds (int64) not below `min`, up to the largest integer JSON
 * carries exactly (2^53 - 1; RFC 7493 section 2.2).
 */
export const wideInteger = (min: number, en: string, fa: string): JsonSchema =>
  d({ type: 'integer', format: 'int64', minimum: min, maximum: Number.MAX_SAFE_INTEGER }, en, fa);
/** A boolean. */
export const bool = (en: string, fa: string): JsonSchema => d({ type: 'boolean' }, en, fa);
/** A string that is one of `values`. */
export const enumOf = (values: readonly string[], en: string, fa: string): JsonSchema =>
  d({ type: 'string', enum: [...values] }, en, fa);
/** An array of at most `maxItems` `items`. */
export const arrayOf = (
  items: JsonSchema,
  maxItems: number,
  en: string,
  fa: string,
  extra: JsonSchema = {},
): JsonSchema => d({ type: 'array', items, maxItems, ...extra }, en, fa);
/** An open object (responses may grow fields). */
export const objectOf = (
  properties: Record<string, JsonSchema>,
  en: string,
  fa: string,
  required?: string[],
): JsonSchema => d(openObject(properties, required), en, fa);

/** The meeting kind, which picks the digest template. */
export const kindField = (
  en = 'Meeting kind; picks the digest template.',
  fa = 'نوع جلسه؛ قالب گزارش جلسه را تعیین می‌کند.',
): JsonSchema => enumOf(RECORDING_KINDS, en, fa);

/** A series name as answered: stored normalized, so at most the contract's 60 characters. */
export const seriesNameText = (en = 'Series name.', fa = 'نام مجموعه.'): JsonSchema =>
  text(en, fa, { maxLength: LIMITS.seriesNameMaxChars });

/** `{ id, name }` of the series a meeting is filed in, or null. */
export const seriesRefField = nullable(
  objectOf(
    {
      id: idString('Series id.', 'شناسهٔ مجموعه.'),
      name: seriesNameText(),
    },
    'The series the meeting is filed in; null when in no series or while series are switched off.',
    'مجموعه‌ای که جلسه در آن است؛ اگر جلسه در هیچ مجموعه‌ای نباشد یا قابلیت مجموعه‌ها خاموش باشد، null است.',
  ),
);

/** The account owner as tokens see it: never a phone number or email. */
export const ownerField = objectOf(
  {
    type: text(
      'Owner type: `user` today; ignore other values.',
      'نوع صاحب حساب: امروز همیشه `user`؛ مقدارهای دیگر را نادیده بگیرید.',
      {
        maxLength: ANSWER_CEILINGS.codeChars,
      },
    ),
    id: idString('Account id.', 'شناسهٔ حساب کاربری.'),
    displayName: nullable(
      text(
        'Name the owner set; null when none was set. A phone number is never sent.',
        'نامی که صاحب حساب برگزیده است؛ اگر نامی تعیین نشده باشد null است. شمارهٔ تلفن هرگز فرستاده نمی‌شود.',
      ),
    ),
  },
  'The account owner the token acts for.',
  'صاحب حسابی که توکن از طرف او کار می‌کند.',
);

/** Character classes of keyterms; only `[`, `]` and `\\` need escaping inside a class in unicode mode. */
const KEYTERM_FORBIDDEN_CLASS = KEYTERM_FORBIDDEN_CHARS.map((c) =>
  c === '[' || c === ']' || c === '\\' ? '\\' + c : c,
).join('');
const KEYTERM_ALLOWED_CHAR = `[^${KEYTERM_FORBIDDEN_CLASS}]`;
const KEYTERM_VISIBLE_CHAR = `[^${KEYTERM_FORBIDDEN_CLASS}\\s]`;

/** One vocabulary term (account or series keyterms). */
export const keytermField = d(
  {
    type: 'string',
    maxLength: rawLengthOf(LIMITS.keytermMaxChars),
    pattern: `^${KEYTERM_ALLOWED_CHAR}*${KEYTERM_VISIBLE_CHAR}${KEYTERM_ALLOWED_CHAR}*$`,
  },
  `One term: trimmed, runs of spaces collapsed, then 1 to ${LIMITS.keytermMaxChars} characters and at most ${LIMITS.keytermMaxWords} words; none of < > { } [ ] or backslash.`,
  `یک واژه: پس از حذف فاصله‌های دو سر و یکی شدن فاصله‌های پیاپی، ۱ تا ${faDigits(LIMITS.keytermMaxChars)} نویسه و حداکثر ${faDigits(LIMITS.keytermMaxWords)} کلمه؛ بدون نویسه‌های < > { } [ ] و بک‌اسلش.`,
);

/** A list of terms, as answered (saved order). */
export const keytermsListField = arrayOf(
  keytermField,
  LIMITS.keytermsMax,
  `Vocabulary terms in saved order, at most ${LIMITS.keytermsMax}.`,
  `واژه‌های کلیدی به همان ترتیبی که ذخیره شده‌اند، حداکثر ${faDigits(LIMITS.keytermsMax)} واژه.`,
);

/** The `error` object of a FAILED meeting: which step failed and whether a retry can help. */
export const failureField = objectOf(
  {
    code: enumOf(
      ['TRANSCRIBE_FAILED', 'GENERATE_FAILED', 'NO_SPEECH', 'AUDIO_CORRUPT'],
      'Why the meeting failed: TRANSCRIBE_FAILED or GENERATE_FAILED (the step), NO_SPEECH (no speech in the audio) or AUDIO_CORRUPT (audio refused as damaged).',
      'علت شکست جلسه: TRANSCRIBE_FAILED یا GENERATE_FAILED (مرحله‌ای که شکست خورد)، NO_SPEECH (صدا گفتاری ندارد) یا AUDIO_CORRUPT (صدا آسیب‌دیده شناخته شد).',
    ),
    retryable: bool(
      'False for NO_SPEECH and AUDIO_CORRUPT; otherwise a retry can help.',
      'برای NO_SPEECH و AUDIO_CORRUPT نادرست است؛ در غیر این صورت تلاش دوباره می‌تواند کارساز باشد.',
    ),
  },
  'The failure of a FAILED meeting.',
  'شرح شکست جلسه‌ای که در وضعیت FAILED است.',
);
