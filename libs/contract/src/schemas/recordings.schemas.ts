/**
 * Schemas of the recordings resource: list and search pages, the submit result, the status
 * resource, and the request bodies of submitRecording and skipRecordingNaming.
 */
import { LIMITS, OUTPUT_LANGUAGES, RECORDING_KINDS, RECORDING_STATUSES, SUBMIT_NAMING_OPTIONS } from '../catalog';
import { described as d, faDigits, nullable, object, trimmedLengthPattern, type JsonSchema } from '../schema-helpers';
import {
  arrayOf,
  dateTime,
  enumOf,
  failureField,
  idString,
  integer,
  kindField,
  objectOf,
  responseSchema,
  seriesRefField,
  text,
  uri,
  wideInteger,
} from './common.schemas';

/** A title as the app shows it: the meeting's own title, or the series name plus a date. */
export const DISPLAY_TITLE_MAX_CHARS = 2 * LIMITS.recordingTitleMaxChars;

const recordingListItemFields: Record<string, JsonSchema> = {
  id: idString('Meeting id; never changes.', 'شناسهٔ جلسه؛ هرگز تغییر نمی‌کند.'),
  title: nullable(
    text(
      "The title its owner or the submitting token gave, else the digest's; null when none.",
      'عنوانی که صاحب جلسه یا توکن فرستنده داده است، وگرنه عنوان گزارش جلسه؛ اگر هیچ‌کدام نباشد null است.',
      {
        maxLength: LIMITS.recordingTitleMaxChars,
      },
    ),
  ),
  kind: kindField(),
  createdAt: dateTime(
    'When the service received the meeting; the list is ordered by it.',
    'زمانی که سرویس جلسه را دریافت کرد؛ فهرست بر پایهٔ آن مرتب می‌شود.',
  ),
  recordedAt: dateTime(
    'When the meeting happened: the submitted recordedAt, else the receive time.',
    'زمان برگزاری جلسه: مقدار recordedAt فرستاده‌شده، وگرنه زمان دریافت.',
  ),
  durationSeconds: nullable(
    integer(
      0,
      'Measured audio length in seconds; null if unknown.',
      'طول اندازه‌گیری‌شدهٔ صدا به ثانیه؛ اگر نامعلوم باشد null است.',
    ),
  ),
  url: uri("The meeting's page in the web app.", 'صفحهٔ جلسه در برنامهٔ وب.'),
  bundleUrl: uri(
    'GET it with a token holding recordings:read for the whole meeting.',
    'با توکنی که recordings:read دارد آن را بخوانید تا کل جلسه را بگیرید.',
  ),
  series: seriesRefField,
  displayTitle: text(
    'The title as the app shows it; in a series whose titleStyle is SESSION it is the series name plus the meeting date.',
    'عنوان همان‌گونه که برنامه نشان می‌دهد؛ در مجموعه‌ای با titleStyle برابر SESSION، نام مجموعه به همراه تاریخ جلسه است.',
    { maxLength: DISPLAY_TITLE_MAX_CHARS },
  ),
};

/** An item of listReadyRecordings. */
export const recordingListItemSchema = objectOf(recordingListItemFields, 'A finished meeting.', 'یک جلسهٔ آماده.');

/** An item of searchRecordings: a list item plus `snippet`. */
export const searchItemSchema = objectOf(
  {
    ...recordingListItemFields,
    snippet: nullable(
      text(
        `Up to ${LIMITS.snippetMaxChars} characters around the first match, from the transcript, or from the digest when only it matched; null when the words were found in the title alone.`,
        `حداکثر ${faDigits(LIMITS.snippetMaxChars)} نویسه پیرامون نخستین تطابق، از متن پیاده‌شده یا اگر فقط گزارش جلسه تطابق داشت از گزارش؛ اگر واژه‌ها فقط در عنوان یافت شدند null است.`,
        { maxLength: LIMITS.snippetMaxChars },
      ),
    ),
  },
  'A finished meeting that matched the search.',
  'یک جلسهٔ آماده که با جست‌وجو تطابق داشت.',
);

const nextCursorOrNull = nullable(
  text(
    'Send it back as cursor for the next page, unchanged; null on the last page.',
    'برای صفحهٔ بعد، بدون تغییر به‌عنوان cursor بفرستید؛ در صفحهٔ آخر null است.',
    {
      maxLength: LIMITS.cursorMaxChars,
    },
  ),
);

/** The page of listReadyRecordings. */
export const recordingListPageSchema = responseSchema(
  {
    items: arrayOf(
      recordingListItemSchema,
      LIMITS.listLimitMax,
      'Finished meetings, newest first by createdAt.',
      'جلسه‌های آماده، از جدیدترین بر پایهٔ createdAt.',
    ),
    nextCursor: nextCursorOrNull,
  },
  'A page of finished meetings.',
  'یک صفحه از جلسه‌های آماده.',
);

/** The page of searchRecordings. */
export const searchPageSchema = responseSchema(
  {
    items: arrayOf(
      searchItemSchema,
      LIMITS.searchLimitMax,
      'Matching meetings, newest first by recordedAt.',
      'جلسه‌های مطابق، از جدیدترین بر پایهٔ recordedAt.',
    ),
    nextCursor: nextCursorOrNull,
  },
  'A page of search results.',
  'یک صفحه از نتیجه‌های جست‌وجو.',
);

const statusField = enumOf(
  RECORDING_STATUSES,
  'Where the meeting is in its life.',
  'جلسه در کدام مرحله از چرخهٔ پردازش خود است.',
);
const bundleUrlOrNull = nullable(
  uri(
    "The bundle's address; null until the meeting is READY.",
    'نشانی بستهٔ کامل جلسه؛ تا پیش از آماده شدن جلسه null است.',
  ),
);
const appUrl = uri("The meeting's page in the web app.", 'صفحهٔ جلسه در برنامهٔ وب.');

/** The 202 of submitRecording: `{ schemaVersion, recording }`. */
export const submitResultSchema = responseSchema(
  {
    recording: objectOf(
      {
        id: idString('Meeting id.', 'شناسهٔ جلسه.'),
        status: d(
          statusField,
          'QUEUED for a new meeting; a replay with the same Idempotency-Key answers the current status.',
          'برای جلسهٔ تازه QUEUED است؛ تکرار با همان Idempotency-Key وضعیت کنونی را برمی‌گرداند.',
        ),
        minutes: wideInteger(
          0,
          "The price in minutes: audio length, plus 20% when keyterms apply, plus the attachment's minutes.",
          'بها به دقیقه: طول صدا، به‌علاوهٔ ۲۰ درصد اگر واژگان کلیدی به کار روند، به‌علاوهٔ دقیقه‌های پیوست.',
        ),
        recordedAt: dateTime('When the meeting happened.', 'زمان برگزاری جلسه.'),
        statusUrl: uri(
          'Address of getRecordingStatus for this meeting; poll it about once a minute.',
          'نشانی وضعیت این جلسه؛ حدوداً هر یک دقیقه یک بار آن را بخوانید.',
        ),
        bundleUrl: bundleUrlOrNull,
        url: appUrl,
      },
      'The accepted meeting.',
      'جلسهٔ پذیرفته‌شده.',
    ),
  },
  'The meeting was accepted and its minutes are held.',
  'جلسه پذیرفته شد و دقیقه‌های آن کنار گذاشته شد.',
);

/** The status resource (getRecordingStatus, skipRecordingNaming, retryRecording). */
export const recordingStatusSchema = responseSchema(
  {
    id: idString('Meeting id.', 'شناسهٔ جلسه.'),
    status: statusField,
    title: nullable(
      text("The meeting's title; null when none.", 'عنوان جلسه؛ اگر عنوانی نباشد null است.', {
        maxLength: LIMITS.recordingTitleMaxChars,
      }),
    ),
    error: nullable({
      ...failureField,
      description: 'Present at FAILED; null otherwise.',
      'x-svc-description-fa': 'در وضعیت FAILED مقدار دارد؛ در غیر این صورت null است.',
    }),
    naming: nullable(
      objectOf(
        {
          url: uri(
            'Opens the speaker-naming sheet in the app for the signed-in account owner only; safe to send in chat or email.',
            'برگهٔ نام‌گذاری گویندگان را در برنامه فقط برای صاحب حساب واردشده باز می‌کند؛ فرستادن آن در گفت‌وگو یا ایمیل بی‌خطر است.',
          ),
          deadline: nullable(
            dateTime(
              'When the service proceeds without the names; can move later, so read the latest status. Null under FORCE_ON when there is no end.',
              'زمانی که سرویس بدون نام‌ها ادامه می‌دهد؛ ممکن است دیرتر شود، پس آخرین وضعیت را بخوانید. در حالت FORCE_ON بدون پایان، null است.',
            ),
          ),
        },
        'Present at NAMING; null otherwise.',
        'در وضعیت NAMING مقدار دارد؛ در غیر این صورت null است.',
      ),
    ),
    bundleUrl: bundleUrlOrNull,
    url: appUrl,
  },
  "The meeting's status.",
  'وضعیت جلسه.',
);

const submitParts: Record<string, JsonSchema> = {
  audio: d(
    { contentMediaType: 'application/octet-stream' },
    "The audio file (or a video when video upload is enabled). Its type is the part's content type; without one the service sniffs the first bytes.",
    'پروندهٔ صوتی (یا ویدئو اگر بارگذاری ویدئو روشن باشد). نوع آن از نوع محتوای همین بخش خوانده می‌شود و اگر نباشد، سرویس از نخستین بایت‌ها تشخیص می‌دهد.',
  ),
  recordedAt: dateTime(
    'When the meeting happened, ISO 8601 with an offset; at most 5 minutes in the future and not before 2000. Default: the receive time.',
    'زمان برگزاری جلسه با قالب ISO 8601 و اختلاف ساعت؛ حداکثر ۵ دقیقه در آینده و نه پیش از سال ۲۰۰۰. پیش‌فرض: زمان دریافت.',
  ),
  naming: enumOf(
    SUBMIT_NAMING_OPTIONS,
    "`default` lets the owner's speakerNamingMode decide; `skip` never stops at NAMING.",
    'مقدار `default` تصمیم را به speakerNamingMode صاحب حساب می‌سپارد؛ `skip` هرگز در مرحلهٔ نام‌گذاری نمی‌ایستد.',
  ),
  useKeyterms: enumOf(
    ['true', 'false'],
    'Whether transcription uses the vocabulary (account, or series then account); a meeting that uses any keyterms costs 20% more. Default false.',
    'آیا تبدیل گفتار به متن از واژگان کلیدی (حساب، یا مجموعه و سپس حساب) استفاده کند؛ جلسه‌ای که از واژگان کلیدی استفاده کند ۲۰ درصد گران‌تر است. پیش‌فرض false است.',
  ),
  title: text(
    `The meeting's title, up to ${LIMITS.recordingTitleMaxChars} characters.`,
    `عنوان جلسه، حداکثر ${faDigits(LIMITS.recordingTitleMaxChars)} نویسه.`,
    { maxLength: LIMITS.recordingTitleMaxChars, pattern: trimmedLengthPattern(1, LIMITS.recordingTitleMaxChars) },
  ),
  seriesId: text(
    "File the meeting in one of the caller's own series; any other (a series it only joined, or cannot reach) is 404. Only possible when sending.",
    'جلسه را در یکی از مجموعه‌های خودِ فراخواننده قرار می‌دهد؛ هر مجموعهٔ دیگر (مجموعه‌ای که فقط به آن پیوسته یا به آن دسترسی ندارد) پاسخ ۴۰۴ می‌گیرد. فقط هنگام فرستادن ممکن است.',
    { minLength: 1, maxLength: LIMITS.idMaxChars },
  ),
  kind: enumOf(
    RECORDING_KINDS,
    'Meeting kind; picks the digest template. Default MEETING.',
    'نوع جلسه؛ قالب گزارش جلسه را تعیین می‌کند. پیش‌فرض MEETING است.',
  ),
  outputLanguage: enumOf(
    OUTPUT_LANGUAGES,
    "Digest language: MATCH (the meeting's own), FA or EN. Default MATCH.",
    'زبان گزارش جلسه: MATCH (زبان خود جلسه)، FA یا EN. پیش‌فرض MATCH است.',
  ),
  attachment: d(
    { contentMediaType: 'application/octet-stream' },
    'A PDF, PPTX or DOCX of at most 10 MB, read with the meeting; adds its minutes to the price.',
    'یک پروندهٔ PDF یا PPTX یا DOCX حداکثر ۱۰ مگابایت که همراه جلسه خوانده می‌شود؛ دقیقه‌های آن به بها افزوده می‌شود.',
  ),
};

/** The multipart body of submitRecording. Binary parts carry `contentMediaType`; `withoutBinaryParts` gives the text parts. */
export const submitRecordingBodySchema = d(
  object(submitParts, ['audio']),
  'The meeting to submit, as multipart/form-data parts.',
  'جلسه‌ای که فرستاده می‌شود، در قالب بخش‌های multipart/form-data.',
);

/** The JSON body of skipRecordingNaming: `{ action: "skip" }`. */
export const skipNamingBodySchema = d(
  object({
    action: enumOf(
      ['skip'],
      'The only action: skip naming; a token cannot write names.',
      'تنها کنش ممکن: رد کردن نام‌گذاری؛ توکن نمی‌تواند نام بنویسد.',
    ),
  }),
  'Which naming action to take.',
  'کنشی که برای نام‌گذاری گویندگان انجام می‌شود.',
);
