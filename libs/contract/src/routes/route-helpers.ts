/** Builders shared by the route definitions: common parameters, bodies and success responses. */
import { LIMITS } from '../catalog';
import type { BodyDef, ParamDef, ResponseDef } from '../routes.types';
import { described as d, faDigits, type JsonSchema } from '../schema-helpers';
import { idempotencyKeyBounds } from '../schemas/ask.schemas';

/** The `{id}` path parameter. */
export const idParam = (what: string, whatFa: string): ParamDef => ({
  name: 'id',
  in: 'path',
  required: true,
  schema: d({ type: 'string', minLength: 1, maxLength: LIMITS.idMaxChars }, `The ${what} id.`, `شناسهٔ ${whatFa}.`),
});

/** The `Idempotency-Key` header of the three spending routes. */
export const idempotencyKeyHeader: ParamDef = {
  name: 'Idempotency-Key',
  in: 'header',
  required: false,
  schema: d(
    { type: 'string', ...idempotencyKeyBounds },
    `Idempotency key, ${LIMITS.idempotencyKeyMin} to ${LIMITS.idempotencyKeyMax} characters after trimming: make one random key per new request and resend it on every retry; a repeat returns the first result without a second charge.`,
    `کلید یکتایی درخواست، ${faDigits(LIMITS.idempotencyKeyMin)} تا ${faDigits(LIMITS.idempotencyKeyMax)} نویسه پس از پیراستن: برای هر درخواست تازه یک کلید تصادفی بسازید و در هر تلاش دوباره همان را بفرستید؛ تکرار، نتیجهٔ نخست را بدون کسر دوباره برمی‌گرداند.`,
  ),
};

/** A `limit` query parameter. */
export const limitParam = (max: number, dflt: number): ParamDef => ({
  name: 'limit',
  in: 'query',
  required: false,
  schema: d(
    { type: 'integer', format: 'int32', minimum: 1, maximum: max, default: dflt },
    `Page size, 1 to ${max}; default ${dflt}.`,
    `اندازهٔ صفحه، از ۱ تا ${faDigits(max)}؛ پیش‌فرض ${faDigits(dflt)}.`,
  ),
});

/** A `seriesId` query parameter. */
export const seriesIdQuery = (en: string, fa: string): ParamDef => ({
  name: 'seriesId',
  in: 'query',
  required: false,
  schema: d({ type: 'string', minLength: 1, maxLength: LIMITS.idMaxChars }, en, fa),
});

/** A query parameter. */
export const query = (name: string, schema: JsonSchema, required = false): ParamDef => ({
  name,
  in: 'query',
  required,
  schema,
});

/** A required JSON body. */
export const jsonBody = (schema: JsonSchema): BodyDef => ({ contentType: 'application/json', required: true, schema });

/** A success response. */
export function ok(schema: JsonSchema, en: string, fa: string, status = 200, contentType?: string): ResponseDef {
  return { status, schema, description: en, descriptionFa: fa, ...(contentType ? { contentType } : {}) };
}
