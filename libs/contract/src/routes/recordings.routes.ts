/** Route definitions of the recordings service: list, search, bundle, status, submit, skip naming, retry. */
import { LIMITS, RECORDING_KINDS } from '../catalog';
import type { RouteDef } from '../routes.types';
import { described as d } from '../schema-helpers';
import { ANSWER_CEILINGS } from '../schemas/common.schemas';
import { bundleMarkdownSchema, bundleSchema } from '../schemas/bundle.schemas';
import {
  recordingListPageSchema,
  recordingStatusSchema,
  searchPageSchema,
  skipNamingBodySchema,
  submitRecordingBodySchema,
  submitResultSchema,
} from '../schemas/recordings.schemas';
import { idempotencyKeyHeader, idParam, jsonBody, limitParam, ok, query, seriesIdQuery } from './route-helpers';

const meetingId = idParam('meeting', 'جلسه');
const statusOk = ok(recordingStatusSchema, "The meeting's status.", 'وضعیت جلسه.');

export const listReadyRecordings: RouteDef = {
  operationId: 'listReadyRecordings',
  method: 'get',
  path: '/recordings/ready',
  scopes: ['recordings:read'],
  spends: false,
  rateClass: 'read',
  service: 'recordings',
  summary: { en: 'List finished meetings', fa: 'فهرست جلسه‌های آماده' },
  description: {
    en: 'Lists finished (READY) meetings, newest first by createdAt. A meeting enters the list only when finished, so a long meeting can appear below a shorter one sent later; walk the whole list to catch up.',
    fa: 'جلسه‌های آماده (READY) را از جدیدترین بر پایهٔ createdAt فهرست می‌کند. جلسه فقط پس از آماده شدن به فهرست می‌آید، پس ممکن است جلسه‌ای طولانی زیر جلسهٔ کوتاه‌تری که بعدتر فرستاده شده قرار گیرد؛ برای همگام شدن کل فهرست را پیمایش کنید.',
  },
  params: [
    limitParam(LIMITS.listLimitMax, LIMITS.listLimitDefault),
    query(
      'cursor',
      d(
        { type: 'string', maxLength: LIMITS.cursorMaxChars, pattern: '^[0-9]{1,15}\\.[A-Za-z0-9_-]{1,48}$' },
        'The nextCursor of the previous page, unchanged; absent means the newest page. Any other value is 400.',
        'مقدار nextCursor صفحهٔ پیشین بدون تغییر؛ نبودن آن یعنی جدیدترین صفحه. هر مقدار دیگری پاسخ ۴۰۰ می‌گیرد.',
      ),
    ),
    seriesIdQuery(
      "Only that series' meetings (own or joined); a series the caller cannot read is 404. Absent: the caller's own meetings only.",
      'فقط جلسه‌های آن مجموعه (خودی یا پیوسته)؛ مجموعه‌ای که فراخواننده نمی‌تواند بخواند پاسخ ۴۰۴ می‌گیرد. بدون آن: فقط جلسه‌های خود فراخواننده.',
    ),
  ],
  responses: [ok(recordingListPageSchema, 'A page of finished meetings.', 'یک صفحه از جلسه‌های آماده.')],
  errors: ['VALIDATION', 'NOT_FOUND'],
};

export const searchRecordings: RouteDef = {
  operationId: 'searchRecordings',
  method: 'get',
  path: '/recordings/search',
  scopes: ['recordings:query'],
  spends: false,
  rateClass: 'search',
  service: 'recordings',
  summary: { en: 'Search finished meetings', fa: 'جست‌وجو در جلسه‌های آماده' },
  description: {
    en: "Finds finished meetings in which every word appears in the title, transcript or digest, newest first by recordedAt. Free. Without seriesId only the caller's own meetings are searched. Any parameter not listed is 400 VALIDATION.",
    fa: 'جلسه‌های آماده‌ای را می‌یابد که همهٔ واژه‌ها در عنوان، متن پیاده‌شده یا گزارش آن‌ها آمده باشد، از جدیدترین بر پایهٔ recordedAt. رایگان است. بدون seriesId فقط جلسه‌های خود فراخواننده جست‌وجو می‌شوند. هر پارامتر دیگری پاسخ ۴۰۰ VALIDATION می‌گیرد.',
  },
  params: [
    query(
      'q',
      d(
        { type: 'string', minLength: 1, maxLength: LIMITS.searchQueryMaxChars, pattern: '\\S' },
        'Words to find, 1 to 200 characters; a word also matches inside a longer word; case, diacritics and the half-space are ignored, Arabic letter forms match Persian ones and Persian digits match Latin ones.',
        'واژه‌هایی که باید یافت شوند، ۱ تا ۲۰۰ نویسه؛ هر واژه درون واژه‌ای بلندتر هم یافت می‌شود؛ بزرگی و کوچکی حروف، اعراب و نیم‌فاصله نادیده گرفته می‌شوند، شکل‌های عربی حروف با فارسی و رقم‌های فارسی با لاتین برابرند.',
      ),
      true,
    ),
    seriesIdQuery(
      'Only that series (joined included); a series the caller cannot read is 404.',
      'فقط همان مجموعه (از جمله مجموعهٔ پیوسته)؛ مجموعه‌ای که فراخواننده نمی‌تواند بخواند پاسخ ۴۰۴ می‌گیرد.',
    ),
    query(
      'kind',
      d({ type: 'string', enum: [...RECORDING_KINDS] }, 'Only meetings of this kind.', 'فقط جلسه‌های این نوع.'),
    ),
    query(
      'from',
      d(
        { type: 'string', format: 'date-time', maxLength: ANSWER_CEILINGS.dateTimeChars },
        'Earliest recordedAt, ISO 8601 with an offset; included.',
        'کمترین مقدار recordedAt با قالب ISO 8601 و اختلاف ساعت؛ خودش هم شامل می‌شود.',
      ),
    ),
    query(
      'to',
      d(
        { type: 'string', format: 'date-time', maxLength: ANSWER_CEILINGS.dateTimeChars },
        'Latest recordedAt, ISO 8601 with an offset; included.',
        'بیشترین مقدار recordedAt با قالب ISO 8601 و اختلاف ساعت؛ خودش هم شامل می‌شود.',
      ),
    ),
    limitParam(LIMITS.searchLimitMax, LIMITS.searchLimitDefault),
    query(
      'cursor',
      d(
        { type: 'string', minLength: 1, maxLength: LIMITS.cursorMaxChars },
        'The nextCursor of the previous page, unchanged.',
        'مقدار nextCursor صفحهٔ پیشین بدون تغییر.',
      ),
    ),
  ],
  responses: [ok(searchPageSchema, 'A page of matching meetings.', 'یک صفحه از جلسه‌های مطابق.')],
  errors: ['VALIDATION', 'NOT_FOUND'],
};

export const getRecordingBundle: RouteDef = {
  operationId: 'getRecordingBundle',
  method: 'get',
  path: '/recordings/{id}/bundle',
  scopes: ['recordings:read'],
  spends: false,
  rateClass: 'read',
  service: 'recordings',
  summary: { en: 'Read a whole meeting', fa: 'خواندن کامل یک جلسه' },
  description: {
    en: 'Returns the meeting, its transcript, digest and stats as JSON, or with format=markdown as one text/markdown document. A meeting not READY answers 409 NOT_READY with details beside error.',
    fa: 'جلسه، متن پیاده‌شده، گزارش و آمار آن را به صورت JSON، یا با format=markdown در قالب یک سند text/markdown برمی‌گرداند. جلسه‌ای که آماده نیست پاسخ ۴۰۹ NOT_READY می‌گیرد و details در کنار error می‌آید.',
  },
  params: [
    meetingId,
    query(
      'format',
      d(
        { type: 'string', enum: ['markdown'] },
        'Omit for JSON; `markdown` for text/markdown.',
        'برای JSON آن را نفرستید؛ مقدار `markdown` برای text/markdown.',
      ),
    ),
  ],
  responses: [
    ok(bundleSchema, 'The whole meeting.', 'کل جلسه.'),
    ok(
      bundleMarkdownSchema,
      'The whole meeting as Markdown (format=markdown).',
      'کل جلسه در قالب Markdown (با format=markdown).',
      200,
      'text/markdown',
    ),
  ],
  errors: ['VALIDATION', 'NOT_FOUND', 'NOT_READY'],
};

export const getRecordingStatus: RouteDef = {
  operationId: 'getRecordingStatus',
  method: 'get',
  path: '/recordings/{id}/status',
  scopes: ['recordings:read', 'recordings:write'],
  spends: false,
  rateClass: 'read',
  service: 'recordings',
  summary: { en: 'Status of a meeting', fa: 'وضعیت یک جلسه' },
  description: {
    en: 'Where the meeting is in its life. Poll about once a minute and act on NAMING, READY or FAILED. A deleted meeting is 404. A token with recordings:write only reaches the meetings it sent itself.',
    fa: 'نشان می‌دهد جلسه در کدام مرحله است. حدوداً هر یک دقیقه یک بار بپرسید و در وضعیت‌های NAMING و READY و FAILED اقدام کنید. جلسهٔ حذف‌شده پاسخ ۴۰۴ می‌گیرد. توکنی که فقط recordings:write دارد تنها به جلسه‌هایی می‌رسد که خودش فرستاده است.',
  },
  params: [meetingId],
  responses: [statusOk],
  errors: ['VALIDATION', 'NOT_FOUND'],
};

export const submitRecording: RouteDef = {
  operationId: 'submitRecording',
  method: 'post',
  path: '/recordings',
  scopes: ['recordings:write'],
  spends: true,
  rateClass: 'submit',
  service: 'recordings',
  summary: { en: 'Submit a meeting', fa: 'فرستادن یک جلسه' },
  description: {
    en: "Uploads a meeting's audio as multipart/form-data and answers 202 with the queued meeting and its price. Its minutes are held from acceptance and charged once when the transcript is ready. Send an Idempotency-Key and resend it on every retry.",
    fa: 'صدای جلسه را در قالب multipart/form-data بارگذاری می‌کند و با جلسهٔ در صف و بهای آن پاسخ ۲۰۲ می‌دهد. دقیقه‌های آن از لحظهٔ پذیرش کنار گذاشته می‌شوند و هنگام آماده شدن متن یک بار کسر می‌شوند. کلید یکتایی بفرستید و در هر تلاش دوباره همان را بفرستید.',
  },
  params: [idempotencyKeyHeader],
  body: {
    contentType: 'multipart/form-data',
    required: true,
    schema: submitRecordingBodySchema,
    encoding: {
      audio: { contentType: 'audio/*, video/*, application/octet-stream' },
      attachment: {
        contentType:
          'application/pdf, application/vnd.openxmlformats-officedocument.presentationml.presentation, application/vnd.openxmlformats-officedocument.wordprocessingml.document',
      },
    },
  },
  responses: [ok(submitResultSchema, 'Accepted: the meeting is queued.', 'پذیرفته شد: جلسه در صف است.', 202)],
  errors: [
    'VALIDATION',
    'NOT_FOUND',
    'INVALID_AUDIO',
    'AUDIO_INCOMPLETE',
    'UPLOAD_TOO_LARGE',
    'RECORDING_TOO_LONG',
    'VIDEO_UPLOAD_DISABLED',
    'VIDEO_UNAVAILABLE',
    'VIDEO_NO_AUDIO',
    'VIDEO_UNREADABLE',
    'ATTACHMENT_TYPE',
    'ATTACHMENT_TOO_LARGE',
    'DAILY_LIMIT_REACHED',
    'INSUFFICIENT_MINUTES',
    'TOKEN_DAILY_CAP',
    'IDEMPOTENCY_KEY_IN_USE',
    'UPLOAD_IN_PROGRESS',
    'INTERNAL',
  ],
};

export const skipRecordingNaming: RouteDef = {
  operationId: 'skipRecordingNaming',
  method: 'post',
  path: '/recordings/{id}/naming',
  scopes: ['recordings:write'],
  spends: false,
  rateClass: 'submit',
  service: 'recordings',
  summary: { en: 'Skip speaker naming', fa: 'رد کردن نام‌گذاری گویندگان' },
  description: {
    en: "Lets a meeting at NAMING go on without names; voices take the service's suggestions where it has one. Free. A meeting not at NAMING is 409 NOT_NAMING. Reaches the caller's own meetings, never those of a joined series.",
    fa: 'جلسهٔ در مرحلهٔ نام‌گذاری را بدون نام پیش می‌برد؛ هر جا سرویس پیشنهادی داشته باشد همان برای صداها به کار می‌رود. رایگان است. جلسه‌ای که در مرحلهٔ نام‌گذاری نیست پاسخ ۴۰۹ NOT_NAMING می‌گیرد. فقط به جلسه‌های خود فراخواننده می‌رسد، نه جلسه‌های مجموعهٔ پیوسته.',
  },
  params: [meetingId],
  body: jsonBody(skipNamingBodySchema),
  responses: [statusOk],
  errors: ['VALIDATION', 'NOT_FOUND', 'NOT_NAMING'],
};

export const retryRecording: RouteDef = {
  operationId: 'retryRecording',
  method: 'post',
  path: '/recordings/{id}/retry',
  scopes: ['recordings:write'],
  spends: false,
  rateClass: 'submit',
  service: 'recordings',
  summary: { en: 'Retry a failed meeting', fa: 'تلاش دوباره برای جلسهٔ ناموفق' },
  description: {
    en: 'Runs the failed step again at no extra cost; a ready transcript is never redone. An AUDIO_CORRUPT meeting answers its unchanged status. A meeting not FAILED is 409 NOT_FAILED. No body.',
    fa: 'مرحلهٔ ناموفق را بدون هزینهٔ اضافه دوباره اجرا می‌کند؛ متن آماده هرگز دوباره ساخته نمی‌شود. جلسه‌ای با خطای AUDIO_CORRUPT همان وضعیت بدون تغییر را برمی‌گرداند. جلسه‌ای که ناموفق نیست پاسخ ۴۰۹ NOT_FAILED می‌گیرد. بدنه ندارد.',
  },
  params: [meetingId],
  responses: [statusOk],
  errors: ['VALIDATION', 'NOT_FOUND', 'NOT_FAILED'],
};
