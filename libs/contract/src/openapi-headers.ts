/**
 * The header fields every answer of the public API may carry beside its body: the token's rate
 * budget (IETF RateLimit fields) and the CORS policy, as the gateway sends them and as
 * openapi.json describes them. Field names and value formats are written here only.
 */
import { RATE_CLASSES, type RateClass } from './catalog';
import { described as d, faDigits } from './schema-helpers';

/**
 * The rate-limit fields of draft-ietf-httpapi-ratelimit-headers (version 10): the policy
 * (`"<class>";q=<requests>;w=<window seconds>`) and what is left of it
 * (`"<class>";r=<requests left>;t=<seconds until the window starts anew>`).
 */
export const RATE_LIMIT_POLICY_HEADER = 'RateLimit-Policy';
export const RATE_LIMIT_HEADER = 'RateLimit';
/** The CORS field: the one origin whose pages may read an answer (docs/decisions.md, "CORS"). */
export const CORS_ORIGIN_HEADER = 'Access-Control-Allow-Origin';

/** A token's budget of one rate class, as the gateway's rate gate counted it for this request. */
export interface RateBudget {
  /** Requests the window allows (the class's requests, times RATE_LIMIT_SCALE). */
  limit: number;
  /** Requests left in the window after this one; 0 when over budget. */
  remaining: number;
  /** Whole seconds until the window starts anew. */
  resetSeconds: number;
}

/** The two rate-limit fields of an answer from the token's budget of `rateClass`. */
export function rateLimitFields(rateClass: RateClass, budget: RateBudget): Record<string, string> {
  const window = RATE_CLASSES[rateClass].windowSeconds;
  return {
    [RATE_LIMIT_POLICY_HEADER]: `"${rateClass}";q=${budget.limit};w=${window}`,
    [RATE_LIMIT_HEADER]: `"${rateClass}";r=${Math.max(0, budget.remaining)};t=${Math.max(0, budget.resetSeconds)}`,
  };
}

const WHEN_SENT =
  'Sent on every answer once the token is known to be live (all answers but 401 and 403 DEVELOPER_MODE_OFF), ' +
  'unless the rate limits are open because their store is away.';
const WHEN_SENT_FA =
  'در هر پاسخی می‌آید که توکن در آن زنده شناخته شده باشد (همهٔ پاسخ‌ها جز ۴۰۱ و ۴۰۳ DEVELOPER_MODE_OFF)، ' +
  'مگر وقتی محدودیت‌های نرخ به سبب در دسترس نبودن انبارشان باز باشند.';

/**
 * The origin (scheme, host and port) of an API root: the one origin whose pages may read the
 * API's answers in a browser, sent as `Access-Control-Allow-Origin` on every answer.
 */
export function apiOrigin(apiRoot: string): string {
  return new URL(apiRoot).origin;
}

/** Where `components.headers` keeps a header: the rate fields once per rate class, the others once. */
const headerRef = (name: string) => ({ $ref: `#/components/headers/${name}` });
const rateHeaderName = (field: string, rateClass: RateClass) => `${field}.${rateClass}`;

/** The headers every response of an operation of `rateClass` declares: references to `components.headers`. */
export function answerHeaders(rateClass: RateClass): Record<string, unknown> {
  return {
    [RATE_LIMIT_POLICY_HEADER]: headerRef(rateHeaderName(RATE_LIMIT_POLICY_HEADER, rateClass)),
    [RATE_LIMIT_HEADER]: headerRef(rateHeaderName(RATE_LIMIT_HEADER, rateClass)),
    [CORS_ORIGIN_HEADER]: headerRef(CORS_ORIGIN_HEADER),
  };
}

/** Retry-After, as the answers that may carry it declare it. */
export const retryAfterRef = headerRef('Retry-After');

/** The rate fields of one class, declared once in `components.headers`. */
function rateHeaders(rateClass: RateClass): Record<string, unknown> {
  const { requests, windowSeconds } = RATE_CLASSES[rateClass];
  const name = `"${rateClass}"`;
  return {
    [rateHeaderName(RATE_LIMIT_POLICY_HEADER, rateClass)]: {
      description: `The token's rate budget for the ${rateClass} class (IETF RateLimit fields): ${name};q=<requests>;w=<window seconds>, today ${name};q=${requests};w=${windowSeconds}, as x-svc-rate-limit says. ${WHEN_SENT}`,
      'x-svc-description-fa': `بودجهٔ نرخ توکن برای دستهٔ ${rateClass} (فیلدهای RateLimit از IETF): ${name};q=<شمار درخواست>;w=<ثانیه‌های بازه>، امروز ${name};q=${requests};w=${windowSeconds}، همان‌گونه که x-svc-rate-limit می‌گوید. ${WHEN_SENT_FA}`,
      schema: d(
        {
          type: 'string',
          maxLength: 64,
          pattern: `^"${rateClass}";q=[0-9]{1,15};w=${windowSeconds}$`,
          examples: [`${name};q=${requests};w=${windowSeconds}`],
        },
        'A structured field: the class name, q the requests of the window, w its length in seconds.',
        'یک فیلد ساخت‌یافته: نام دسته، q شمار درخواست‌های بازه و w طول آن به ثانیه.',
      ),
    },
    [rateHeaderName(RATE_LIMIT_HEADER, rateClass)]: {
      description: `What is left of the token's ${rateClass} budget after this request: ${name};r=<requests left>;t=<seconds until the window starts anew>. r=0 means the next request of the class is refused with 429 RATE_LIMITED until t seconds have passed. ${WHEN_SENT}`,
      'x-svc-description-fa': `آنچه پس از این درخواست از بودجهٔ ${rateClass} توکن مانده است: ${name};r=<درخواست‌های باقی‌مانده>;t=<ثانیه تا آغاز دوبارهٔ بازه>. r=۰ یعنی درخواست بعدی این دسته تا گذشتن t ثانیه با ۴۲۹ RATE_LIMITED رد می‌شود. ${WHEN_SENT_FA}`,
      schema: d(
        {
          type: 'string',
          maxLength: 64,
          pattern: `^"${rateClass}";r=[0-9]{1,15};t=[0-9]{1,10}$`,
          examples: [`${name};r=${requests - 1};t=${windowSeconds}`],
        },
        'A structured field: the class name, r the requests left, t the seconds until the window starts anew.',
        'یک فیلد ساخت‌یافته: نام دسته، r درخواست‌های باقی‌مانده و t ثانیه‌ها تا آغاز دوبارهٔ بازه.',
      ),
    },
  };
}

/** The CORS field: the origin of the API root. */
const corsOriginHeader = {
  description:
    'CORS: on every answer, the origin of the API root itself (scheme, host and port of the server URL), so only pages of this service (the app) may read answers in a browser. ' +
    'No other website may: no preflight (OPTIONS) is answered, so a browser never sends a token to the API from another origin.',
  'x-svc-description-fa':
    'CORS: در هر پاسخ، خاستگاه خود ریشهٔ رابط برنامه‌نویسی (طرح، میزبان و درگاه نشانی سرور)، تا فقط صفحه‌های همین سرویس (برنامه) بتوانند پاسخ‌ها را در مرورگر بخوانند. ' +
    'هیچ وب‌سایت دیگری نمی‌تواند: به هیچ درخواست پیش‌پرواز (OPTIONS) پاسخ داده نمی‌شود، پس مرورگر هرگز از خاستگاه دیگری توکن را به رابط نمی‌فرستد.',
  schema: d(
    { type: 'string', format: 'uri', maxLength: 2048 },
    'The origin of the API root, such as https://meetings.example.com.',
    'خاستگاه ریشهٔ رابط برنامه‌نویسی، مانند https://meetings.example.com.',
  ),
};

/** Retry-After: whole seconds, at most a day (the daily limits' rolling 24 hours). */
const retryAfterHeader = {
  description: 'Seconds to wait before trying again; absent when waiting will not help.',
  'x-svc-description-fa': 'چند ثانیه پیش از تلاش دوباره صبر کنید؛ اگر صبر کردن سودی نداشته باشد نمی‌آید.',
  schema: d(
    { type: 'integer', format: 'int32', minimum: 0, maximum: 86_400 },
    `Whole seconds, at most ${86_400} (a day).`,
    `ثانیه به عدد صحیح، حداکثر ${faDigits(86_400)} (یک روز).`,
  ),
};

/**
 * `components.headers` of openapi.json: each header declared once (the rate fields once per rate
 * class the routes use), referenced by every answer that carries it.
 */
export function headerComponents(rateClasses: Iterable<RateClass>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const rateClass of new Set(rateClasses)) Object.assign(out, rateHeaders(rateClass));
  return { ...out, [CORS_ORIGIN_HEADER]: corsOriginHeader, 'Retry-After': retryAfterHeader };
}
