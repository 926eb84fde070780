/** Schemas of the series resource: series, the readable list, series keyterms and the request bodies. */
import { ACCESS_ROLES, DATE_CALENDARS, LIMITS, OUTPUT_LANGUAGES, RECORDING_KINDS, TITLE_STYLES } from '../catalog';
import { described as d, faDigits, nullable, object, rawLengthOf, type JsonSchema } from '../schema-helpers';
import {
  ANSWER_CEILINGS,
  arrayOf,
  bool,
  dateTime,
  enumOf,
  idString,
  integer,
  keytermField,
  keytermsListField,
  objectOf,
  responseSchema,
  seriesNameText,
  uri,
} from './common.schemas';

const defaultKindField = enumOf(
  RECORDING_KINDS,
  "Start value of the app's digest settings for meetings filed in the series; submitRecording does not read it.",
  'مقدار آغازین تنظیمات گزارش در برنامه برای جلسه‌های این مجموعه؛ ارسال جلسه با توکن آن را نمی‌خواند.',
);
const defaultOutputLanguageField = enumOf(
  OUTPUT_LANGUAGES,
  "Start value of the digest language: MATCH (the meeting's own), FA or EN; submitRecording does not read it.",
  'مقدار آغازین زبان گزارش: MATCH (زبان خود جلسه)، FA یا EN؛ ارسال جلسه با توکن آن را نمی‌خواند.',
);
const titleStyleField = enumOf(
  TITLE_STYLES,
  "SESSION: series name plus meeting date, with the meeting's own title beneath; TOPIC: the meeting's own title.",
  'SESSION: نام مجموعه به همراه تاریخ جلسه و عنوان خود جلسه در زیر آن؛ TOPIC: عنوان خود جلسه.',
);
const dateCalendarField = enumOf(
  DATE_CALENDARS,
  'Calendar of the date in a SESSION title: AUTO (Solar Hijri for Persian digests, Gregorian for English), JALALI or GREGORIAN.',
  'تقویم تاریخ در عنوان SESSION: AUTO (هجری خورشیدی برای گزارش فارسی و میلادی برای انگلیسی)، JALALI (هجری خورشیدی) یا GREGORIAN (میلادی).',
);

/** The `series` object of getSeries, createSeries and updateSeries. */
export const seriesObjectSchema = objectOf(
  {
    id: idString('Series id, as seriesId takes it.', 'شناسهٔ مجموعه، همان مقداری که seriesId می‌پذیرد.'),
    name: seriesNameText(),
    access: enumOf(
      ACCESS_ROLES,
      '`owner` when the caller made the series, else `member`.',
      'اگر فراخواننده مجموعه را ساخته باشد `owner`، وگرنه `member`.',
    ),
    defaultKind: defaultKindField,
    defaultOutputLanguage: defaultOutputLanguageField,
    titleStyle: titleStyleField,
    dateCalendar: dateCalendarField,
    meetingCount: integer(
      0,
      'Finished meetings of the series the caller can read.',
      'شمار جلسه‌های آمادهٔ مجموعه که فراخواننده می‌تواند بخواند.',
    ),
    lastRecordedAt: nullable(
      dateTime(
        'When the newest of those meetings happened; null when none.',
        'زمان برگزاری جدیدترین آن جلسه‌ها؛ اگر جلسه‌ای نباشد null است.',
      ),
    ),
  },
  'A series: a named group of meetings.',
  'مجموعه: گروهی نام‌دار از جلسه‌ها.',
);

/** `{ schemaVersion, series }`. */
export const seriesResponseSchema = responseSchema({ series: seriesObjectSchema }, 'One series.', 'یک مجموعه.');

/** An item of listReadableSeries. */
export const seriesListItemSchema = objectOf(
  {
    id: idString('Series id.', 'شناسهٔ مجموعه.'),
    name: seriesNameText(),
    role: enumOf(ACCESS_ROLES, '`owner` or `member`.', 'مقدار `owner` یا `member`.'),
    meetingCount: integer(
      0,
      'How many meetings meetingsUrl lists right now.',
      'شمار جلسه‌هایی که meetingsUrl هم‌اکنون فهرست می‌کند.',
    ),
    url: uri("The series' page in the web app.", 'صفحهٔ مجموعه در برنامهٔ وب.'),
    meetingsUrl: uri(
      "GET it with the same token for the series' finished meetings (listReadyRecordings with seriesId).",
      'با همین توکن آن را بخوانید تا جلسه‌های آمادهٔ مجموعه را بگیرید (فهرست جلسه‌های آماده با seriesId).',
    ),
  },
  'A series the caller can read.',
  'مجموعه‌ای که فراخواننده می‌تواند بخواند.',
);

/** The answer of listReadableSeries. */
export const seriesListSchema = responseSchema(
  {
    items: arrayOf(
      seriesListItemSchema,
      ANSWER_CEILINGS.readableSeries,
      'Owned series first, then joined, each group by name; empty while series are switched off.',
      'نخست مجموعه‌های خودی و سپس مجموعه‌های پیوسته، هر گروه به ترتیب نام؛ هنگام خاموش بودن مجموعه‌ها خالی است.',
    ),
  },
  'The series the caller can read.',
  'مجموعه‌هایی که فراخواننده می‌تواند بخواند.',
);

const inheritField = bool(
  "Whether meetings of the series also use the account terms, after the series' own, up to 100 in all.",
  'آیا جلسه‌های مجموعه پس از واژه‌های خود مجموعه از واژه‌های حساب هم استفاده کنند، روی هم حداکثر ۱۰۰ واژه.',
);

/** Series keyterms: `{ schemaVersion, keyterms, inheritAccountKeyterms }`. */
export const seriesKeytermsSchema = responseSchema(
  { keyterms: keytermsListField, inheritAccountKeyterms: inheritField },
  "The series' vocabulary.",
  'واژگان کلیدی مجموعه.',
);

/** Control characters other than the whitespace ones (tab, line feed, vertical tab, form feed, carriage return). */
const NAME_CONTROL = '\\u0000-\\u0008\\u000E-\\u001F\\u007F-\\u009F';
const NAME_CHAR = `[^${NAME_CONTROL}]`;
const NAME_VISIBLE_CHAR = `[^${NAME_CONTROL}\\s]`;

const seriesNameField = d(
  {
    type: 'string',
    maxLength: rawLengthOf(LIMITS.seriesNameMaxChars),
    pattern: `^${NAME_CHAR}*${NAME_VISIBLE_CHAR}${NAME_CHAR}*$`,
  },
  `Series name: whitespace runs (line breaks and tabs included) collapse to one space, ends are trimmed, then 1 to ${LIMITS.seriesNameMaxChars} characters; other control characters are refused; unique per owner, ignoring case.`,
  `نام مجموعه: فاصله‌های پیاپی (از جمله شکست سطر و تب) به یک فاصله تبدیل و دو سر آن پیراسته می‌شود، سپس ۱ تا ${faDigits(LIMITS.seriesNameMaxChars)} نویسه؛ نویسه‌های کنترلی دیگر پذیرفته نمی‌شوند؛ برای هر صاحب حساب یکتاست و بزرگی و کوچکی حروف در نظر گرفته نمی‌شود.`,
);

const seriesSettingsFields: Record<string, JsonSchema> = {
  name: seriesNameField,
  defaultKind: defaultKindField,
  defaultOutputLanguage: defaultOutputLanguageField,
  titleStyle: titleStyleField,
  dateCalendar: dateCalendarField,
};

/** The body of createSeries; omitted fields take their defaults. */
export const createSeriesBodySchema = d(
  object(
    {
      name: seriesNameField,
      defaultKind: { ...defaultKindField, default: 'MEETING' },
      defaultOutputLanguage: { ...defaultOutputLanguageField, default: 'MATCH' },
      titleStyle: { ...titleStyleField, default: 'SESSION' },
      dateCalendar: { ...dateCalendarField, default: 'AUTO' },
    },
    ['name'],
  ),
  'The new series; only name is required.',
  'مجموعهٔ تازه؛ فقط نام الزامی است.',
);

/** The body of updateSeries: at least one field; omitted fields keep their value. */
export const updateSeriesBodySchema = d(
  object(seriesSettingsFields, [], { minProperties: 1 }),
  'At least one field to change; omitted fields keep their value.',
  'دست‌کم یک فیلد برای تغییر؛ فیلدهای نیامده مقدار خود را نگه می‌دارند.',
);

/** The body of replaceSeriesKeyterms. */
export const replaceSeriesKeytermsBodySchema = d(
  object({
    keyterms: arrayOf(
      keytermField,
      LIMITS.keytermsMax,
      `The whole new vocabulary: at most ${LIMITS.keytermsMax} terms, none twice.`,
      `کل واژگان تازه: حداکثر ${faDigits(LIMITS.keytermsMax)} واژه، بدون تکرار.`,
      { uniqueItems: true },
    ),
    inheritAccountKeyterms: inheritField,
  }),
  "Replaces the series' whole vocabulary.",
  'کل واژگان کلیدی مجموعه را جایگزین می‌کند.',
);
