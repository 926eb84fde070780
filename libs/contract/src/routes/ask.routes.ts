/**
 * Route definitions of Ask: questions, for one meeting or a series, answered by the ask service, and
 * their price quotes, answered by the recordings service beside the documents they count (no bus hop).
 */
import type { RouteDef } from '../routes.types';
import {
  askBodySchema,
  recordingAskAnswerSchema,
  recordingAskQuoteSchema,
  seriesAskAnswerSchema,
  seriesAskQuoteSchema,
} from '../schemas/ask.schemas';
import { idempotencyKeyHeader, idParam, jsonBody, ok } from './route-helpers';

const meetingId = idParam('meeting', 'جلسه');
const seriesId = idParam('series', 'مجموعه');
const askErrors = [
  'VALIDATION',
  'NOT_FOUND',
  'ASK_DISABLED',
  'PRICE_ABOVE_MAX',
  'INSUFFICIENT_MINUTES',
  'TOKEN_DAILY_CAP',
  'DAILY_LIMIT_REACHED',
  'IDEMPOTENCY_KEY_IN_USE',
  'GENERATE_FAILED',
  'INTERNAL',
];

export const quoteRecordingAsk: RouteDef = {
  operationId: 'quoteRecordingAsk',
  method: 'get',
  path: '/recordings/{id}/ask/quote',
  scopes: ['recordings:query'],
  spends: false,
  rateClass: 'search',
  service: 'recordings',
  summary: { en: 'Price of asking a meeting', fa: 'بهای پرسش از یک جلسه' },
  description: {
    en: 'The price in minutes of one question to this meeting. Free. It depends on the meeting (length of the transcript, speaker names included), not on the question, and holds until the transcript is edited or a speaker is named or renamed.',
    fa: 'بهای یک پرسش از این جلسه به دقیقه. رایگان است. بها به جلسه (طول متن پیاده‌شده همراه با نام گویندگان) بستگی دارد نه به پرسش، و تا وقتی متن ویرایش نشده یا گوینده‌ای نام‌گذاری یا تغییر نام داده نشده ثابت می‌ماند.',
  },
  params: [meetingId],
  responses: [ok(recordingAskQuoteSchema, 'The price.', 'بها.')],
  errors: ['VALIDATION', 'NOT_FOUND', 'ASK_DISABLED', 'ASK_NOT_READY'],
};

export const askRecording: RouteDef = {
  operationId: 'askRecording',
  method: 'post',
  path: '/recordings/{id}/ask',
  scopes: ['recordings:query'],
  spends: true,
  rateClass: 'ask',
  service: 'ask',
  summary: { en: 'Ask a meeting a question', fa: 'پرسیدن از یک جلسه' },
  description: {
    en: "Answers a question from what was said in the meeting, citing at most 3 turns, and charges the quoted price (a refusal too; a 502 GENERATE_FAILED is not charged). Works on the caller's own meetings and those of a joined series. Send an Idempotency-Key.",
    fa: 'به پرسش بر پایهٔ آنچه در جلسه گفته شد پاسخ می‌دهد، با ارجاع به حداکثر ۳ نوبت گفتار، و بهای اعلام‌شده را کسر می‌کند (خودداری از پاسخ هم هزینه دارد؛ خطای ۵۰۲ GENERATE_FAILED هزینه ندارد). روی جلسه‌های خود فراخواننده و جلسه‌های مجموعهٔ پیوسته کار می‌کند. کلید یکتایی بفرستید.',
  },
  params: [meetingId, idempotencyKeyHeader],
  body: jsonBody(askBodySchema),
  responses: [ok(recordingAskAnswerSchema, 'The answer.', 'پاسخ.')],
  errors: [...askErrors, 'ASK_NOT_READY'],
};

export const quoteSeriesAsk: RouteDef = {
  operationId: 'quoteSeriesAsk',
  method: 'get',
  path: '/series/{id}/ask/quote',
  scopes: ['series:query'],
  spends: false,
  rateClass: 'search',
  service: 'recordings',
  summary: { en: 'Price of asking a series', fa: 'بهای پرسش از یک مجموعه' },
  description: {
    en: 'The price in minutes of one question to this series and how many finished meetings it reads. Free. Fewer than 2 finished meetings is 409 SERIES_ASK_TOO_FEW; while Ask is off this answers 404.',
    fa: 'بهای یک پرسش از این مجموعه به دقیقه و شمار جلسه‌های آماده‌ای که پرسش می‌خواند. رایگان است. کمتر از ۲ جلسهٔ آماده پاسخ ۴۰۹ SERIES_ASK_TOO_FEW می‌گیرد؛ هنگام خاموش بودن پرسش و پاسخ، پاسخ ۴۰۴ است.',
  },
  params: [seriesId],
  responses: [ok(seriesAskQuoteSchema, 'The price.', 'بها.')],
  errors: ['VALIDATION', 'NOT_FOUND', 'SERIES_ASK_TOO_FEW'],
};

export const askSeries: RouteDef = {
  operationId: 'askSeries',
  method: 'post',
  path: '/series/{id}/ask',
  scopes: ['series:query'],
  spends: true,
  rateClass: 'ask',
  service: 'ask',
  summary: { en: 'Ask a series a question', fa: 'پرسیدن از یک مجموعه' },
  description: {
    en: "Answers a question from the series' finished meetings, citing at most 5 turns with their recordingId. A member who asks pays from their own balance. Needs at least 2 finished meetings. Send an Idempotency-Key.",
    fa: 'به پرسش بر پایهٔ جلسه‌های آمادهٔ مجموعه پاسخ می‌دهد، با ارجاع به حداکثر ۵ نوبت گفتار همراه با recordingId. عضوی که می‌پرسد از موجودی خودش می‌پردازد. دست‌کم ۲ جلسهٔ آماده لازم است. کلید یکتایی بفرستید.',
  },
  params: [seriesId, idempotencyKeyHeader],
  body: jsonBody(askBodySchema),
  responses: [ok(seriesAskAnswerSchema, 'The answer.', 'پاسخ.')],
  errors: [...askErrors, 'SERIES_ASK_TOO_FEW'],
};
