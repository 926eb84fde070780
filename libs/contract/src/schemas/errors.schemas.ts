/**
 * The error bodies of the contract: the one envelope `{ error: { code, message, details? } }`
 * and the older NOT_READY shape of the bundle, whose `details` sit beside `error`.
 * Neither carries `schemaVersion`.
 */
import { ERROR_CODES, LIMITS, RECORDING_STATUSES } from '../catalog';
import { annotationsOf, described as d, type JsonSchema } from '../schema-helpers';
import { enumOf, integer, objectOf, text, wideInteger } from './common.schemas';

const noSchemaVersion: JsonSchema = {
  not: { type: 'object', properties: { schemaVersion: true }, required: ['schemaVersion'] },
};

const detailsField = objectOf(
  {
    requiredMinutes: wideInteger(
      0,
      'Minutes the request needs (INSUFFICIENT_MINUTES, TOKEN_DAILY_CAP).',
      'دقیقه‌هایی که این درخواست نیاز دارد (INSUFFICIENT_MINUTES و TOKEN_DAILY_CAP).',
    ),
    balanceMinutes: d(
      { type: 'integer', format: 'int64', minimum: -Number.MAX_SAFE_INTEGER, maximum: Number.MAX_SAFE_INTEGER },
      'INSUFFICIENT_MINUTES, only for a token holding account:read: the balance (for a meeting, less meetings still in progress).',
      'برای INSUFFICIENT_MINUTES و فقط برای توکنی که account:read دارد: موجودی حساب (برای جلسه، پس از کسر جلسه‌های در حال پردازش).',
    ),
    capMinutes: integer(
      LIMITS.dailyMinuteCapMin,
      "TOKEN_DAILY_CAP: the token's daily minute cap.",
      'برای TOKEN_DAILY_CAP: سقف روزانهٔ دقیقه‌های این توکن.',
      {
        maximum: LIMITS.dailyMinuteCapMax,
      },
    ),
    usedMinutes: wideInteger(
      0,
      'TOKEN_DAILY_CAP: minutes the token spent in the last 24 hours.',
      'برای TOKEN_DAILY_CAP: دقیقه‌هایی که توکن در ۲۴ ساعت گذشته خرج کرده است.',
    ),
    minutes: wideInteger(0, 'PRICE_ABOVE_MAX: the price in minutes.', 'برای PRICE_ABOVE_MAX: بهای پرسش به دقیقه.'),
    maxMinutes: wideInteger(
      1,
      'PRICE_ABOVE_MAX: the ceiling the request sent.',
      'برای PRICE_ABOVE_MAX: سقفی که درخواست فرستاده بود.',
    ),
  },
  'Extra facts, only with INSUFFICIENT_MINUTES, TOKEN_DAILY_CAP and PRICE_ABOVE_MAX.',
  'اطلاعات بیشتر؛ فقط همراه با INSUFFICIENT_MINUTES و TOKEN_DAILY_CAP و PRICE_ABOVE_MAX می‌آید.',
  [],
);

/** A conditional fragment: when `error.code` is `code`, `details` must carry `fields` (their types are in `details`). */
function detailsWhen(code: string, fields: string[]): JsonSchema {
  const described = detailsField.properties as Record<string, JsonSchema>;
  return {
    if: {
      type: 'object',
      properties: { code: d({ const: code }, `The condition: the code is ${code}.`, `شرط: کد ${code} است.`) },
      required: ['code'],
    },
    then: {
      type: 'object',
      properties: {
        details: d(
          {
            type: 'object',
            properties: Object.fromEntries(fields.map((f) => [f, annotationsOf(described[f])])),
            required: fields,
          },
          `Always present with ${code}.`,
          `همیشه همراه ${code} می‌آید.`,
        ),
      },
      required: ['details'],
    },
  };
}

/** The error's message: every code but INTERNAL_ERROR has one. */
const messageField = text(
  'Human-readable explanation; its wording may change, do not match on it.',
  'توضیح خوانا برای انسان؛ ممکن است تغییر کند، پس بر پایهٔ آن تصمیم نگیرید.',
);
/** What INTERNAL_ERROR never carries. */
const absent = (en: string, fa: string): JsonSchema => d({ not: {} }, en, fa);

/** `{ error: { code, message, details? } }`; INTERNAL_ERROR carries the code alone. */
export const errorEnvelopeSchema: JsonSchema = {
  ...objectOf(
    {
      error: {
        ...objectOf(
          {
            code: enumOf(
              Object.keys(ERROR_CODES),
              'Stable error code: branch on it.',
              'کد پایدار خطا؛ تصمیم‌گیری را بر پایهٔ آن انجام دهید.',
            ),
            message: messageField,
            details: detailsField,
          },
          'What went wrong.',
          'شرح خطایی که رخ داد.',
          ['code'],
        ),
        allOf: [
          {
            if: {
              type: 'object',
              properties: {
                code: d(
                  { const: 'INTERNAL_ERROR' },
                  'The condition: the code is INTERNAL_ERROR.',
                  'شرط: کد INTERNAL_ERROR است.',
                ),
              },
              required: ['code'],
            },
            then: {
              type: 'object',
              properties: {
                message: absent(
                  'Never sent with INTERNAL_ERROR: the code alone tells.',
                  'همراه INTERNAL_ERROR هرگز نمی‌آید: کد به‌تنهایی گویاست.',
                ),
                details: absent('Never sent with INTERNAL_ERROR.', 'همراه INTERNAL_ERROR هرگز نمی‌آید.'),
              },
            },
            else: { type: 'object', properties: { message: annotationsOf(messageField) }, required: ['message'] },
          },
          detailsWhen('INSUFFICIENT_MINUTES', ['requiredMinutes']),
          detailsWhen('TOKEN_DAILY_CAP', ['capMinutes', 'usedMinutes', 'requiredMinutes']),
          detailsWhen('PRICE_ABOVE_MAX', ['minutes', 'maxMinutes']),
        ],
      },
    },
    'Error response; carries no schemaVersion.',
    'پاسخ خطا؛ schemaVersion ندارد.',
  ),
  ...noSchemaVersion,
};

/** The bundle's 409 NOT_READY, in its older shape: `{ error: { code, message }, details: { status } }`. */
export const notReadyErrorSchema: JsonSchema = {
  ...objectOf(
    {
      error: objectOf(
        {
          code: d({ type: 'string', const: 'NOT_READY' }, 'Always NOT_READY.', 'همیشه NOT_READY.'),
          message: text(
            'Human-readable explanation; its wording may change.',
            'توضیح خوانا برای انسان؛ ممکن است تغییر کند.',
          ),
        },
        'What went wrong.',
        'شرح خطایی که رخ داد.',
      ),
      details: objectOf(
        {
          status: enumOf(
            RECORDING_STATUSES.filter((s) => s !== 'READY'),
            "The meeting's current status.",
            'وضعیت کنونی جلسه.',
          ),
        },
        'Beside error, not inside it: the older shape kept for existing readers.',
        'در کنار error و نه درون آن: شکل قدیمی‌تر که برای خوانندگان کنونی نگه داشته شده است.',
      ),
    },
    "The bundle's 409 NOT_READY: the meeting is not finished yet.",
    'پاسخ ۴۰۹ NOT_READY برای بستهٔ جلسه: جلسه هنوز آماده نشده است.',
  ),
  ...noSchemaVersion,
};
