/**
 * Generates the machine-readable description (OpenAPI 3.1, info version 1) served at
 * `{base_url}/openapi.json`, from the route table alone. App-only routes are left out.
 */
import { ERROR_CODES, RATE_CLASSES, type ErrorCode } from './catalog';
import { answerHeaders, headerComponents, retryAfterRef } from './openapi-headers';
import { routeErrorsByStatus } from './route-errors';
import { ROUTES } from './routes';
import type { ParamDef, ResponseDef, RouteDef } from './routes.types';
import { faDigits, type JsonSchema } from './schema-helpers';
import { errorEnvelopeSchema, notReadyErrorSchema } from './schemas/errors.schemas';

export interface OpenApiOptions {
  /** The API root, ending in `/api/v1`. */
  serverUrl: string;
}

interface TagDef {
  name: string;
  description: string;
  'x-svc-description-fa': string;
}

/** Tags by the first path segment. */
const TAGS: Record<string, TagDef> = {
  whoami: { name: 'Token', description: 'The calling token.', 'x-svc-description-fa': 'توکن فراخواننده.' },
  recordings: {
    name: 'Recordings',
    description: 'Meetings: submit, wait, read, search and ask.',
    'x-svc-description-fa': 'جلسه‌ها: فرستادن، انتظار، خواندن، جست‌وجو و پرسش.',
  },
  events: {
    name: 'Events',
    description: "The feed of what happened to the owner's meetings.",
    'x-svc-description-fa': 'خوراک رویدادهای جلسه‌های صاحب حساب.',
  },
  series: {
    name: 'Series',
    description: 'Named groups of meetings, their vocabulary and Ask.',
    'x-svc-description-fa': 'گروه‌های نام‌دار جلسه‌ها، واژگان کلیدی آن‌ها و پرسش از آن‌ها.',
  },
  account: {
    name: 'Account',
    description: "The owner's account: wallet, settings, vocabulary and memory.",
    'x-svc-description-fa': 'حساب صاحب توکن: کیف پول، تنظیمات، واژگان کلیدی و حافظه.',
  },
};

const ERROR_REF = { $ref: '#/components/schemas/Error' };
const NOT_READY_REF = { $ref: '#/components/schemas/NotReadyError' };

function tagOf(route: RouteDef): TagDef {
  const tag = TAGS[route.path.split('/')[1]];
  if (!tag) throw new Error(`no tag for ${route.path}`);
  return tag;
}

function parameterOf(p: ParamDef): Record<string, unknown> {
  return {
    name: p.name,
    in: p.in,
    required: p.required,
    description: p.schema.description,
    'x-svc-description-fa': p.schema['x-svc-description-fa'],
    schema: p.schema,
  };
}

function requestBodyOf(route: RouteDef): Record<string, unknown> | undefined {
  if (!route.body) return undefined;
  const { schema, contentType, required, encoding } = route.body;
  return {
    required,
    description: schema.description,
    'x-svc-description-fa': schema['x-svc-description-fa'],
    content: { [contentType]: { schema, ...(encoding ? { encoding } : {}) } },
  };
}

function successResponses(
  responses: readonly ResponseDef[],
  headers: Record<string, unknown>,
): Record<string, unknown> {
  type Entry = {
    description: string;
    'x-svc-description-fa'?: string;
    headers: Record<string, unknown>;
    content: Record<string, { schema: JsonSchema }>;
  };
  const out: Record<string, Entry> = {};
  for (const r of responses) {
    const key = String(r.status);
    const entry = (out[key] ??= {
      description: r.description,
      'x-svc-description-fa': r.descriptionFa,
      headers,
      content: {},
    });
    entry.content[r.contentType ?? 'application/json'] = { schema: r.schema };
  }
  return out;
}

function errorResponse(status: number, codes: ErrorCode[], headers: Record<string, unknown>): Record<string, unknown> {
  const list = codes.join(', ');
  const schema = codes.every((c) => c === 'NOT_READY')
    ? NOT_READY_REF
    : codes.includes('NOT_READY')
      ? { anyOf: [NOT_READY_REF, ERROR_REF] }
      : ERROR_REF;
  const waits = status === 429 || codes.includes('UPLOAD_IN_PROGRESS');
  return {
    description: `Error ${status}: ${list}. Branch on error.code.`,
    'x-svc-description-fa': `خطای ${faDigits(status)} با یکی از این کدها: ${codes.join('، ')}. تصمیم را بر پایهٔ error.code بگیرید.`,
    'x-svc-error-codes': codes,
    headers: waits ? { ...headers, 'Retry-After': retryAfterRef } : headers,
    content: { 'application/json': { schema } },
  };
}

function operationOf(route: RouteDef): Record<string, unknown> {
  const rate = RATE_CLASSES[route.rateClass];
  const headers = answerHeaders(route.rateClass);
  const responses: Record<string, unknown> = successResponses(route.responses, headers);
  for (const [status, codes] of routeErrorsByStatus(route))
    responses[String(status)] = errorResponse(status, codes, headers);
  const body = requestBodyOf(route);
  return {
    operationId: route.operationId,
    summary: route.summary.en,
    description: route.description.en,
    'x-svc-summary-fa': route.summary.fa,
    'x-svc-description-fa': route.description.fa,
    tags: [tagOf(route).name],
    'x-svc-scopes': route.scopes === 'any' ? ['any'] : [...route.scopes],
    'x-svc-spends': route.spends,
    'x-svc-rate-limit': { class: route.rateClass, requests: rate.requests, windowSeconds: rate.windowSeconds },
    parameters: route.params.map(parameterOf),
    ...(body ? { requestBody: body } : {}),
    responses,
  };
}

/**
 * Builds the OpenAPI 3.1.0 document of the public API from `ROUTES`: one operation per route with
 * its English and Persian texts, `x-svc-scopes`, `x-svc-spends`, `x-svc-rate-limit`, parameters,
 * request body, success responses, and one error response per status the route can answer
 * (its own codes plus the gateway's checks), each with the error envelope schema.
 * The result is a fresh object; callers may change it without touching the route table.
 */
export function buildOpenApi(opts: OpenApiOptions): Record<string, unknown> {
  const paths: Record<string, Record<string, unknown>> = {};
  const serverUrl = opts.serverUrl.replace(/\/+$/, '');
  for (const route of ROUTES) {
    (paths[route.path] ??= {})[route.method] = operationOf(route);
  }
  const usedTags = new Set(ROUTES.map((r) => tagOf(r).name));
  const doc = {
    openapi: '3.1.0',
    info: {
      title: 'Meeting Memory API',
      version: '1',
      summary: 'Submit meetings, wait for them, read their digests and transcripts, search and ask them.',
      description:
        'Meeting memory: a meeting is transcribed, then a digest (summary, decisions, action items) is written and kept. ' +
        'Every successful JSON response carries schemaVersion 1; errors are `{ error: { code, message, details? } }`. ' +
        `Known error codes: ${Object.keys(ERROR_CODES).length}; branch on code, never on message.`,
      'x-svc-description-fa':
        'حافظهٔ جلسه: گفتار جلسه پیاده می‌شود، سپس گزارشی (چکیده، تصمیم‌ها و کارهای پیگیری) نوشته و نگه داشته می‌شود. ' +
        'هر پاسخ موفق JSON فیلد schemaVersion با مقدار ۱ دارد؛ خطاها به شکل `{ error: { code, message, details? } }` هستند. ' +
        'تصمیم را بر پایهٔ کد خطا بگیرید، هرگز بر پایهٔ پیام.',
    },
    servers: [
      {
        url: serverUrl,
        description:
          'The API root of this installation: production when served over https, local development otherwise.',
        'x-svc-description-fa':
          'ریشهٔ رابط برنامه‌نویسی این نصب: روی https محیط تولید است و در غیر این صورت محیط توسعهٔ محلی.',
        // The public API: tokens of every account reach it (OWASP API9, inventory).
        'x-internal': false,
      },
    ],
    security: [{ bearer: [] }],
    tags: Object.values(TAGS).filter((t) => usedTags.has(t.name)),
    paths,
    components: {
      securitySchemes: {
        bearer: {
          type: 'http',
          scheme: 'bearer',
          description: 'A personal API token made in the app, starting with svc_: `Authorization: Bearer <token>`.',
          'x-svc-description-fa':
            'توکن شخصی که در برنامه ساخته می‌شود و با svc_ آغاز می‌شود: `Authorization: Bearer <token>`.',
        },
      },
      schemas: { Error: errorEnvelopeSchema, NotReadyError: notReadyErrorSchema },
      headers: headerComponents(ROUTES.map((r) => r.rateClass)),
    },
  };
  return structuredClone(doc);
}
