/**
 * Schemas of the token and account resources: token info (whoami), account, account keyterms,
 * memory notes, and the request bodies that change them.
 */
import { LIMITS, MEMORY_CATEGORIES, NAMING_MODES, SCOPES, UI_LOCALES } from '../catalog';
import { described as d, faDigits, nullable, object, trimmedLength } from '../schema-helpers';
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
  ownerField,
  responseSchema,
  text,
  wideInteger,
} from './common.schemas';

const walletField = objectOf(
  {
    balanceMinutes: d(
      { type: 'integer', format: 'int64', minimum: -Number.MAX_SAFE_INTEGER, maximum: Number.MAX_SAFE_INTEGER },
      'Minutes left; meetings whose transcript is not ready are not yet subtracted, and it can go below 0.',
      'دقیقه‌های باقی‌مانده؛ جلسه‌هایی که متنشان هنوز آماده نیست کسر نشده‌اند و ممکن است منفی شود.',
    ),
  },
  "The account's minute balance.",
  'موجودی دقیقهٔ حساب.',
);

/** Token info, the answer of whoami. */
export const tokenInfoSchema = responseSchema(
  {
    owner: ownerField,
    token: objectOf(
      {
        id: idString('Token id.', 'شناسهٔ توکن.'),
        name: text('Name the owner gave the token.', 'نامی که صاحب حساب به توکن داده است.'),
        scopes: arrayOf(
          enumOf(SCOPES, 'One scope.', 'یک دامنهٔ دسترسی.'),
          SCOPES.length,
          'Scopes held, in catalog order.',
          'دامنه‌های دسترسی این توکن، به ترتیب فهرست رسمی.',
          { minItems: 1, uniqueItems: true },
        ),
        dailyMinuteCap: nullable(
          integer(
            LIMITS.dailyMinuteCapMin,
            'Most minutes spendable in any rolling 24 hours; null means no cap.',
            'بیشترین دقیقه‌ای که در هر بازهٔ ۲۴ ساعته می‌توان خرج کرد؛ null یعنی بدون سقف.',
            { maximum: LIMITS.dailyMinuteCapMax },
          ),
        ),
        usedMinutes24h: wideInteger(
          0,
          'Minutes committed in the last 24 hours, the sum the cap is checked against.',
          'دقیقه‌های خرج‌شده در ۲۴ ساعت گذشته؛ همان مجموعی که با سقف سنجیده می‌شود.',
        ),
        expiresAt: nullable(
          dateTime('When the token expires; null means never.', 'زمان انقضای توکن؛ null یعنی هرگز منقضی نمی‌شود.'),
        ),
      },
      'The calling token.',
      'توکنی که درخواست را فرستاده است.',
    ),
    wallet: nullable({
      ...walletField,
      description: 'The balance; null unless the token holds account:read.',
      'x-svc-description-fa': 'موجودی حساب؛ اگر توکن account:read نداشته باشد null است.',
    }),
    limits: objectOf(
      {
        maxUploadMb: d(
          { type: 'number', exclusiveMinimum: 0 },
          'Largest audio file accepted, in megabytes.',
          'بزرگ‌ترین پروندهٔ صوتی پذیرفتنی، به مگابایت.',
        ),
        maxRecordingMinutes: d(
          { type: 'number', exclusiveMinimum: 0 },
          'Longest meeting accepted, in minutes of audio.',
          'طولانی‌ترین جلسهٔ پذیرفتنی، به دقیقهٔ صدا.',
        ),
      },
      'Current upload limits; they can change.',
      'محدودیت‌های کنونی بارگذاری؛ ممکن است تغییر کنند.',
    ),
  },
  'The calling token, its owner, the wallet and the upload limits.',
  'توکن فراخواننده، صاحب آن، کیف پول و محدودیت‌های بارگذاری.',
);

const settingsFields = {
  speakerNamingMode: enumOf(
    NAMING_MODES,
    'How a new meeting waits for speaker names: AUTO (ask, but do not wait long), FORCE_ON (wait until named, skipped or the deadline), FORCE_OFF (never wait; names are guessed).',
    'شیوهٔ انتظار جلسهٔ تازه برای نام گویندگان: AUTO (می‌پرسد ولی زیاد منتظر نمی‌ماند)، FORCE_ON (تا نام‌گذاری، رد کردن یا سررسید منتظر می‌ماند)، FORCE_OFF (منتظر نمی‌ماند و نام‌ها حدس زده می‌شوند).',
  ),
  memoryLearningEnabled: bool(
    'Whether memory gains notes from each new meeting; false only stops learning, existing notes stay in use.',
    'آیا حافظه از هر جلسهٔ تازه یادداشت بیاموزد؛ مقدار نادرست فقط یادگیری را متوقف می‌کند و یادداشت‌های موجود همچنان به کار می‌روند.',
  ),
  summaryEmailEnabled: bool(
    'Whether each new digest is emailed with a PDF to the owner; nothing is sent while the account has no email.',
    'آیا هر گزارش تازه همراه با PDF برای صاحب حساب ایمیل شود؛ تا وقتی حساب ایمیل ندارد چیزی فرستاده نمی‌شود.',
  ),
};

/** The answer of getAccount and updateAccountSettings. */
export const accountSchema = responseSchema(
  {
    owner: ownerField,
    wallet: walletField,
    settings: objectOf(
      {
        ...settingsFields,
        uiLocale: enumOf(
          UI_LOCALES,
          'App language; set only in the app, never by a token.',
          'زبان برنامه؛ فقط در خود برنامه تنظیم می‌شود، هرگز با توکن.',
        ),
      },
      "The account's settings.",
      'تنظیمات حساب.',
    ),
  },
  'The account: owner, wallet and settings. Phone number and email are never sent.',
  'حساب: صاحب، کیف پول و تنظیمات. شمارهٔ تلفن و ایمیل هرگز فرستاده نمی‌شوند.',
);

/** Account keyterms: `{ schemaVersion, keyterms }`. */
export const accountKeytermsSchema = responseSchema(
  { keyterms: keytermsListField },
  "The account's vocabulary.",
  'واژگان کلیدی حساب.',
);

/** One memory note. */
export const memoryItemSchema = objectOf(
  {
    id: idString('Note id.', 'شناسهٔ یادداشت.'),
    category: enumOf(
      MEMORY_CATEGORIES,
      'ABOUT_YOU, PEOPLE or TERMS.',
      'دسته: ABOUT_YOU (دربارهٔ شما)، PEOPLE (افراد) یا TERMS (اصطلاحات).',
    ),
    text: text('The note.', 'متن یادداشت.', { maxLength: LIMITS.memoryNoteMaxChars }),
    meetingCount: integer(0, 'Meetings the note was learned from.', 'شمار جلسه‌هایی که یادداشت از آن‌ها آموخته شده است.'),
    pinned: bool(
      'True after the owner edits it; the service then never rewrites or deletes it.',
      'پس از ویرایش صاحب حساب درست می‌شود؛ از آن پس سرویس هرگز آن را بازنویسی یا حذف نمی‌کند.',
    ),
  },
  'A short note the service keeps about the owner to make digests more exact.',
  'یادداشتی کوتاه که سرویس دربارهٔ صاحب حساب نگه می‌دارد تا گزارش‌ها دقیق‌تر شوند.',
);

/** The answer of listMemory. */
export const memoryListSchema = responseSchema(
  {
    memoryEnabled: bool(
      'Whether memory is on; while false, items is empty.',
      'آیا حافظه روشن است؛ اگر نادرست باشد فهرست خالی است.',
    ),
    items: arrayOf(memoryItemSchema, ANSWER_CEILINGS.memoryNotes, 'The notes.', 'یادداشت‌ها.'),
  },
  'The memory notes.',
  'یادداشت‌های حافظه.',
);

/** The answer of updateMemoryItem: `{ schemaVersion, item }`. */
export const memoryItemResponseSchema = responseSchema(
  { item: memoryItemSchema },
  'The edited note, now pinned.',
  'یادداشت ویرایش‌شده که اکنون سنجاق شده است.',
);

/** The answer of deleteMemoryItem. */
export const memoryDeleteSchema = responseSchema(
  {
    id: idString('Id of the deleted note.', 'شناسهٔ یادداشت حذف‌شده.'),
    deleted: d({ type: 'boolean', const: true }, 'Always true.', 'همیشه درست.'),
  },
  'The note is deleted; it may be learned again later from another meeting.',
  'یادداشت حذف شد؛ ممکن است بعدها از جلسهٔ دیگری دوباره آموخته شود.',
);

/** The body of updateAccountSettings: at least one of the three settings. */
export const updateAccountSettingsBodySchema = d(
  object(settingsFields, [], { minProperties: 1 }),
  'At least one setting to change; any other field is refused.',
  'دست‌کم یک تنظیم برای تغییر؛ هر فیلد دیگری پذیرفته نمی‌شود.',
);

/** The body of replaceAccountKeyterms. */
export const replaceAccountKeytermsBodySchema = d(
  object({
    keyterms: arrayOf(
      keytermField,
      LIMITS.keytermsMax,
      `The whole new vocabulary: at most ${LIMITS.keytermsMax} terms, none twice.`,
      `کل واژگان تازه: حداکثر ${faDigits(LIMITS.keytermsMax)} واژه، بدون تکرار.`,
      { uniqueItems: true },
    ),
  }),
  "Replaces the account's whole vocabulary.",
  'کل واژگان کلیدی حساب را جایگزین می‌کند.',
);

/** The body of updateMemoryItem. */
export const updateMemoryItemBodySchema = d(
  object({
    text: text(
      `The new text: trimmed, at least 1 character, at most the app's per-note cap (never more than ${LIMITS.memoryNoteMaxChars}).`,
      `متن تازه: پس از پیراستن دو سر، دست‌کم ۱ نویسه و حداکثر به اندازهٔ سقف هر یادداشت در برنامه (هرگز بیش از ${faDigits(LIMITS.memoryNoteMaxChars)}).`,
      trimmedLength(1, LIMITS.memoryNoteMaxChars),
    ),
  }),
  "The note's new text.",
  'متن تازهٔ یادداشت.',
);
