/**
 * The bundle of getRecordingBundle: `recording`, `transcript`, `digest` and `stats` beside
 * `schemaVersion`, and its Markdown form. Clients ignore unknown fields and unknown section kinds.
 */
import { ACCESS_ROLES, DIGEST_SECTION_KINDS, LIMITS, RECORDING_KINDS, RECORDING_SOURCES } from '../catalog';
import { described as d, nullable, type JsonSchema } from '../schema-helpers';
import {
  ANSWER_CEILINGS,
  arrayOf,
  dateTime,
  enumOf,
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
import { DISPLAY_TITLE_MAX_CHARS } from './recordings.schemas';

const languageField = (en: string, fa: string): JsonSchema =>
  text(en, fa, { minLength: 2, maxLength: ANSWER_CEILINGS.codeChars });
/** A whole document (a transcript, a digest, the bundle) as text or Markdown. */
const documentText = (en: string, fa: string): JsonSchema => text(en, fa, { maxLength: ANSWER_CEILINGS.documentChars });

const recordingPart = objectOf(
  {
    id: idString('Meeting id; never changes.', 'شناسهٔ جلسه؛ هرگز تغییر نمی‌کند.'),
    title: nullable(
      text("The meeting's own title; null when none.", 'عنوان خود جلسه؛ اگر عنوانی نباشد null است.', {
        maxLength: LIMITS.recordingTitleMaxChars,
      }),
    ),
    displayTitle: text(
      'The title as the app shows it; in a SESSION series, the series name plus the meeting date.',
      'عنوان همان‌گونه که برنامه نشان می‌دهد؛ در مجموعه‌ای با سبک SESSION، نام مجموعه به همراه تاریخ جلسه.',
      { maxLength: DISPLAY_TITLE_MAX_CHARS },
    ),
    subtitle: nullable(
      text(
        "In a series that titles meetings by date, the meeting's own title moves here; otherwise null.",
        'در مجموعه‌ای که جلسه‌ها را با تاریخ نام‌گذاری می‌کند، عنوان خود جلسه به اینجا می‌آید؛ در غیر این صورت null است.',
        { maxLength: LIMITS.recordingTitleMaxChars },
      ),
    ),
    kind: kindField(),
    source: enumOf(
      RECORDING_SOURCES,
      'How the service received the meeting: `app` (recorded in the app), `upload` (uploaded in the app) or `api` (sent with a token).',
      'شیوهٔ دریافت جلسه: `app` (ضبط‌شده در برنامه)، `upload` (بارگذاری‌شده در برنامه) یا `api` (فرستاده‌شده با توکن).',
    ),
    recordedAt: dateTime('When the meeting happened.', 'زمان برگزاری جلسه.'),
    createdAt: dateTime('When the service received the meeting.', 'زمانی که سرویس جلسه را دریافت کرد.'),
    duration: nullable(
      integer(
        0,
        'Length of the meeting: measured audio length in seconds; null if unknown.',
        'طول جلسه: طول اندازه‌گیری‌شدهٔ صدا به ثانیه؛ اگر نامعلوم باشد null است.',
      ),
    ),
    durationSeconds: nullable(
      integer(0, 'The same as duration, named as in the list items.', 'همان duration، با نامی که در اقلام فهرست دارد.'),
    ),
    url: uri("The meeting's page in the web app.", 'صفحهٔ جلسه در برنامهٔ وب.'),
    series: seriesRefField,
    access: enumOf(
      ACCESS_ROLES,
      '`owner`, or `member` for a meeting of a joined series.',
      'مقدار `owner`، یا `member` برای جلسه‌ای از مجموعه‌ای که به آن پیوسته‌اید.',
    ),
  },
  'The meeting itself.',
  'مشخصات خود جلسه.',
);

const speakerLabel = (en: string, fa: string): JsonSchema =>
  text(en, fa, { minLength: 1, maxLength: ANSWER_CEILINGS.codeChars });

const transcriptPart = objectOf(
  {
    language: languageField(
      'Language of the transcript, an ISO 639-1 code such as en or fa.',
      'زبان متن پیاده‌شده با کد ISO 639-1، مانند en یا fa.',
    ),
    speakers: arrayOf(
      objectOf(
        {
          label: speakerLabel(
            'Transcribed speaker label, such as speaker_0; segments refer to it.',
            'برچسب گوینده در متن پیاده‌شده، مانند speaker_0؛ نوبت‌های گفتار به آن اشاره می‌کنند.',
          ),
          name: nullable(
            text(
              'The name given to this person; null when unnamed.',
              'نامی که به این شخص داده شده است؛ اگر نام‌گذاری نشده باشد null است.',
            ),
          ),
        },
        'A person heard in the meeting.',
        'شخصی که صدایش در جلسه شنیده می‌شود.',
      ),
      ANSWER_CEILINGS.speakers,
      'The people of the meeting, with the names given them.',
      'افراد جلسه به همراه نام‌هایی که به آنان داده شده است.',
    ),
    segments: arrayOf(
      objectOf(
        {
          index: integer(0, 'Position of the turn, from 0.', 'جایگاه نوبت گفتار، از صفر.'),
          speaker: speakerLabel(
            'Label of the speaker, as in transcript.speakers.',
            'برچسب گوینده، همان‌گونه که در transcript.speakers آمده است.',
          ),
          startMs: wideInteger(
            0,
            'Start of the turn, in milliseconds from the start of the audio.',
            'آغاز نوبت گفتار، به میلی‌ثانیه از آغاز صدا.',
          ),
          endMs: wideInteger(
            0,
            'End of the turn, in milliseconds from the start of the audio.',
            'پایان نوبت گفتار، به میلی‌ثانیه از آغاز صدا.',
          ),
          text: text('What was said.', 'آنچه گفته شد.'),
        },
        'One turn of speech.',
        'یک نوبت گفتار.',
      ),
      ANSWER_CEILINGS.segments,
      'The turns in order.',
      'نوبت‌های گفتار به ترتیب زمان.',
    ),
    text: documentText('The whole transcript as plain text.', 'کل متن پیاده‌شده به صورت متن ساده.'),
    markdown: documentText('The transcript as Markdown.', 'متن پیاده‌شده در قالب Markdown.'),
  },
  'The transcript.',
  'متن پیاده‌شدهٔ گفتار جلسه.',
);

const sectionTitle = text('Heading of the section.', 'سرعنوان این بخش.');
const stringItems = (en: string, fa: string): JsonSchema =>
  arrayOf(text('One entry.', 'یک مورد.'), ANSWER_CEILINGS.sectionItems, en, fa);

/** One known section kind: `kind` const plus its own fields. */
function section(kind: string, fields: Record<string, JsonSchema>, en: string, fa: string): JsonSchema {
  return objectOf(
    { kind: d({ type: 'string', const: kind }, `Always ${kind}.`, `همیشه ${kind}.`), title: sectionTitle, ...fields },
    en,
    fa,
  );
}

const sectionSchemas: JsonSchema[] = [
  section('summary', { text: text('The summary.', 'متن چکیده.') }, 'Summary section.', 'بخش چکیده.'),
  section(
    'decision_list',
    { items: stringItems('Decisions taken.', 'تصمیم‌های گرفته‌شده.') },
    'Decisions section.',
    'بخش تصمیم‌ها.',
  ),
  section(
    'action_item_list',
    {
      items: arrayOf(
        objectOf(
          {
            text: text('What is to be done.', 'کاری که باید انجام شود.'),
            owner: nullable(
              text(
                'Who does it, as said in the meeting; null when nobody was named.',
                'کسی که آن را انجام می‌دهد، همان‌گونه که در جلسه گفته شد؛ اگر کسی نام برده نشد null است.',
              ),
            ),
          },
          'One action item.',
          'یک کار پیگیری.',
        ),
        ANSWER_CEILINGS.sectionItems,
        'Action items.',
        'کارهای پیگیری.',
      ),
    },
    'Action items section.',
    'بخش کارهای پیگیری.',
  ),
  section(
    'key_point_list',
    { items: stringItems('Key points.', 'نکته‌های کلیدی.') },
    'Key points section.',
    'بخش نکته‌های کلیدی.',
  ),
  section(
    'question_list',
    { items: stringItems('Open questions raised.', 'پرسش‌های بازی که مطرح شد.') },
    'Questions section.',
    'بخش پرسش‌ها.',
  ),
  objectOf(
    {
      kind: d(
        { type: 'string', maxLength: ANSWER_CEILINGS.codeChars, not: { enum: [...DIGEST_SECTION_KINDS] } },
        'A kind unknown to this version; ignore the section.',
        'نوعی که این نسخه نمی‌شناسد؛ این بخش را نادیده بگیرید.',
      ),
      title: sectionTitle,
    },
    'A section of a kind added later.',
    'بخشی از نوعی که بعدها افزوده شده است.',
  ),
];

const digestPart = objectOf(
  {
    type: enumOf(
      RECORDING_KINDS,
      'The template the digest was written with (the meeting kind).',
      'قالبی که گزارش جلسه با آن نوشته شد (همان نوع جلسه).',
    ),
    language: languageField(
      'Language of the digest, an ISO 639-1 code such as en or fa.',
      'زبان گزارش جلسه با کد ISO 639-1، مانند en یا fa.',
    ),
    content: arrayOf(
      d(
        { anyOf: sectionSchemas },
        'A section; `kind` says which fields it has.',
        'یک بخش؛ `kind` مشخص می‌کند چه فیلدهایی دارد.',
      ),
      ANSWER_CEILINGS.sections,
      'The content: sections in reading order.',
      'محتوا: بخش‌ها به ترتیب خواندن.',
    ),
    sections: arrayOf(
      d(
        { anyOf: sectionSchemas },
        'A section; `kind` says which fields it has.',
        'یک بخش؛ `kind` مشخص می‌کند چه فیلدهایی دارد.',
      ),
      ANSWER_CEILINGS.sections,
      'The same sections as content (an earlier name).',
      'همان بخش‌های content (نام پیشین).',
    ),
    markdown: documentText('The digest as Markdown.', 'گزارش جلسه در قالب Markdown.'),
  },
  'The digest: the generated notes of the meeting.',
  'گزارش جلسه: یادداشت‌هایی که سرویس از جلسه ساخته است.',
);

const statsPart = objectOf(
  {
    speakers: arrayOf(
      objectOf(
        {
          speaker: speakerLabel(
            'Speaker label, as in transcript.speakers.',
            'برچسب گوینده، همان‌گونه که در transcript.speakers آمده است.',
          ),
          name: nullable(
            text(
              'The name given to this person; null when unnamed.',
              'نامی که به این شخص داده شده است؛ اگر نام‌گذاری نشده باشد null است.',
            ),
          ),
          speakingMs: wideInteger(0, 'Total speaking time in milliseconds.', 'کل زمان سخن گفتن به میلی‌ثانیه.'),
          turns: integer(0, 'Number of turns.', 'شمار نوبت‌های گفتار.'),
          questions: integer(0, 'Number of questions asked.', 'شمار پرسش‌هایی که مطرح کرد.'),
        },
        'Numbers of one person.',
        'آمار یک شخص.',
      ),
      ANSWER_CEILINGS.speakers,
      'Per person.',
      'به تفکیک هر شخص.',
    ),
    totalTurns: integer(0, 'Turns in the whole meeting.', 'شمار همهٔ نوبت‌های گفتار جلسه.'),
    durationMs: wideInteger(0, 'Length of the transcribed audio in milliseconds.', 'طول صدای پیاده‌شده به میلی‌ثانیه.'),
  },
  'Numbers counted from the transcript.',
  'آماری که از متن پیاده‌شده شمرده شده است.',
);

/** The JSON bundle. */
export const bundleSchema = responseSchema(
  { recording: recordingPart, transcript: transcriptPart, digest: digestPart, stats: statsPart },
  'The whole meeting: recording, transcript, digest and stats.',
  'کل جلسه: مشخصات، متن پیاده‌شده، گزارش و آمار.',
);

/** The bundle with `?format=markdown`: one text/markdown document. */
export const bundleMarkdownSchema = documentText(
  'The meeting as one Markdown document: title, details, digest sections, then the transcript.',
  'جلسه در قالب یک سند Markdown: عنوان، جزئیات، بخش‌های گزارش و سپس متن پیاده‌شده.',
);
