/** Schemas of Ask: the question body, the answers with citations, and the price quotes. */
import { LIMITS } from '../catalog';
import {
  described as d,
  faDigits,
  nullable,
  object,
  trimmedLength,
  trimmedLengthPattern,
  type JsonSchema,
} from '../schema-helpers';
import {
  ANSWER_CEILINGS,
  arrayOf,
  bool,
  idString,
  integer,
  objectOf,
  responseSchema,
  text,
  wideInteger,
} from './common.schemas';

/** The pattern of an Idempotency-Key: 8 to 64 characters after trimming spaces. */
export const idempotencyKeyPattern = trimmedLengthPattern(LIMITS.idempotencyKeyMin, LIMITS.idempotencyKeyMax);
/** The pattern and raw length bound of an Idempotency-Key (header or body). */
export const idempotencyKeyBounds: JsonSchema = trimmedLength(LIMITS.idempotencyKeyMin, LIMITS.idempotencyKeyMax);

/** The body of askRecording and askSeries. */
export const askBodySchema = d(
  object(
    {
      question: text(
        `The question; trimmed, then 1 to ${LIMITS.questionMaxChars} characters.`,
        `پرسش؛ پس از پیراستن دو سر، ۱ تا ${faDigits(LIMITS.questionMaxChars)} نویسه.`,
        trimmedLength(1, LIMITS.questionMaxChars),
      ),
      maxMinutes: wideInteger(
        1,
        'Optional price ceiling: a higher price answers 409 PRICE_ABOVE_MAX and nothing is charged. Without it the price is charged whatever it is.',
        'سقف اختیاری بها: بهای بالاتر پاسخ ۴۰۹ PRICE_ABOVE_MAX می‌گیرد و چیزی کسر نمی‌شود. بدون آن، بها هر چه باشد کسر می‌شود.',
      ),
      idempotencyKey: text(
        `Idempotency key, ${LIMITS.idempotencyKeyMin} to ${LIMITS.idempotencyKeyMax} characters after trimming; the Idempotency-Key header wins when both are sent.`,
        `کلید یکتایی درخواست، ${faDigits(LIMITS.idempotencyKeyMin)} تا ${faDigits(LIMITS.idempotencyKeyMax)} نویسه پس از پیراستن؛ اگر هر دو فرستاده شوند سرآیند Idempotency-Key اولویت دارد.`,
        idempotencyKeyBounds,
      ),
    },
    ['question'],
  ),
  'The question to ask.',
  'پرسشی که پرسیده می‌شود.',
);

const citationFields: Record<string, JsonSchema> = {
  startMs: d(
    { type: 'number', minimum: 0 },
    'Start of the cited turn, in milliseconds from the start of the audio; the bundle segment with the same startMs.',
    'آغاز نوبت گفتار ارجاع‌شده، به میلی‌ثانیه از آغاز صدا؛ همان نوبتی در بستهٔ جلسه که startMs برابر دارد.',
  ),
  speaker: nullable(
    text(
      'The transcribed speaker label such as speaker_0, never a given name; null when unknown.',
      'برچسب گوینده در متن پیاده‌شده مانند speaker_0 و هرگز نام داده‌شده؛ اگر نامعلوم باشد null است.',
      {
        maxLength: ANSWER_CEILINGS.codeChars,
      },
    ),
  ),
};

/** One Ask answer; `maxCitations` and `citation` differ between a meeting and a series. */
function answerSchema(citation: JsonSchema, maxCitations: number, en: string, fa: string): JsonSchema {
  return responseSchema(
    {
      answer: text(
        'The answer. `[n]` marks a claim supported by citations[n - 1]; when refused, why.',
        'پاسخ. نشانهٔ `[n]` ادعایی را نشان می‌دهد که citations[n - 1] پشتیبان آن است؛ در صورت خودداری از پاسخ، دلیل آن.',
      ),
      citations: arrayOf(
        citation,
        maxCitations,
        `Turns the answer cites, in the order first cited; at most ${maxCitations}.`,
        `نوبت‌های گفتاری که پاسخ به آن‌ها ارجاع می‌دهد، به ترتیب نخستین ارجاع؛ حداکثر ${faDigits(maxCitations)}.`,
      ),
      minutes: wideInteger(0, 'Minutes the answer charged.', 'دقیقه‌هایی که این پاسخ کسر کرد.'),
      refused: bool(
        'True when the service declines to answer from what was said; a refusal is charged.',
        'اگر سرویس از پاسخ دادن بر پایهٔ گفته‌های جلسه خودداری کند درست است؛ خودداری هم هزینه دارد.',
      ),
    },
    en,
    fa,
  );
}

/** The answer of askRecording: at most 3 citations. */
export const recordingAskAnswerSchema = answerSchema(
  objectOf(citationFields, 'A cited turn of the meeting.', 'نوبتی از گفتار جلسه که به آن ارجاع شده است.'),
  LIMITS.meetingAskCitationsMax,
  'The answer, from what was said in the meeting.',
  'پاسخ، بر پایهٔ آنچه در جلسه گفته شد.',
);

/** The answer of askSeries: at most 5 citations, each with recordingId. */
export const seriesAskAnswerSchema = answerSchema(
  objectOf(
    {
      ...citationFields,
      recordingId: idString('The meeting of the cited turn.', 'جلسه‌ای که نوبت ارجاع‌شده از آن است.'),
    },
    "A cited turn of one of the series' meetings.",
    'نوبتی از گفتار یکی از جلسه‌های مجموعه که به آن ارجاع شده است.',
  ),
  LIMITS.seriesAskCitationsMax,
  "The answer, from what was said in the series' meetings.",
  'پاسخ، بر پایهٔ آنچه در جلسه‌های مجموعه گفته شد.',
);

const priceField = wideInteger(
  0,
  'The price of one question in minutes; it holds for every question until the source changes.',
  'بهای یک پرسش به دقیقه؛ تا وقتی منبع تغییر نکرده برای هر پرسشی همین است.',
);

/** The answer of quoteRecordingAsk. */
export const recordingAskQuoteSchema = responseSchema(
  { minutes: priceField },
  'The price of asking this meeting.',
  'بهای پرسیدن از این جلسه.',
);

/** The answer of quoteSeriesAsk. */
export const seriesAskQuoteSchema = responseSchema(
  {
    minutes: priceField,
    meetingCount: integer(
      LIMITS.seriesAskMinMeetings,
      'How many finished meetings the question reads: every digest, then as many full transcripts as fit, newest first.',
      'شمار جلسه‌های آماده‌ای که پرسش می‌خواند: همهٔ گزارش‌ها و سپس هر تعداد متن کامل که جا شود، از جدیدترین.',
    ),
  },
  'The price of asking this series.',
  'بهای پرسیدن از این مجموعه.',
);
