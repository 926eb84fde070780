import type { ValidateFunction } from 'ajv/dist/2020';
import type { NextFunction, Request, Response } from 'express';
import {
  findRoute,
  LIMITS,
  operationOf,
  withoutBinaryParts,
  type OperationDef,
  type OperationId,
  type OperationInput,
  type JsonSchema,
} from '@mm/contract';
import { ApiError, createAjv, describeSchemaError } from '@mm/platform';
import { hasBody } from './body-watch';

const ajv = createAjv();

/** What a validated request carries: typed by the handler that reads it. */
export interface ValidInput {
  params: Record<string, string>;
  query: Record<string, unknown>;
  body: Record<string, unknown>;
}

function check(fn: ValidateFunction, data: unknown, where: string): void {
  if (!fn(data)) throw new ApiError('VALIDATION', describeSchemaError(where, fn.errors![0]));
}

/** Turns a query string value into the type its schema asks for; unconvertible values stay strings and fail validation. */
function coerce(value: unknown, schema: JsonSchema): unknown {
  if (Array.isArray(value)) return value; // a repeated parameter fails the schema's type
  if (typeof value !== 'string') return value;
  if (schema.type === 'integer' && /^-?\d{1,15}$/.test(value)) return Number(value);
  if (schema.type === 'boolean' && (value === 'true' || value === 'false')) return value === 'true';
  return value;
}

interface CompiledRoute {
  query: { names: Set<string>; fn: ValidateFunction; schemas: Record<string, JsonSchema> };
  params: ValidateFunction;
  body?: ValidateFunction;
}

/** The path parameters of a path (`/recordings/{id}` has `id`). */
function pathParamNames(path: string): Set<string> {
  return new Set([...path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]));
}

function compileRoute(route: OperationDef, at: string): CompiledRoute {
  const named = pathParamNames(at);
  const byIn = (where: string) => route.params.filter((p) => p.in === where && (where !== 'path' || named.has(p.name)));
  const schemaOf = (ps: OperationDef['params']) => ({
    type: 'object',
    properties: Object.fromEntries(ps.map((p) => [p.name, p.schema])),
    required: ps.filter((p) => p.required).map((p) => p.name),
    additionalProperties: false,
  });
  const q = byIn('query');
  return {
    query: {
      names: new Set(q.map((p) => p.name)),
      fn: ajv.compile(schemaOf(q)),
      schemas: Object.fromEntries(q.map((p) => [p.name, p.schema])),
    },
    params: ajv.compile(schemaOf(byIn('path'))),
    body: route.body?.contentType === 'application/json' ? ajv.compile(route.body.schema) : undefined,
  };
}

const compiled = new Map<string, CompiledRoute>();

/** The media types the JSON body parser reads (createServiceApp). */
export const JSON_TYPES = ['application/json', 'application/*+json'];

/** True when a string anywhere in the value holds U+0000, which no Postgres text column can store. */
export function holdsNul(value: unknown): boolean {
  if (typeof value === 'string') return value.includes('\u0000');
  if (Array.isArray(value)) return value.some(holdsNul);
  if (value && typeof value === 'object')
    return Object.entries(value).some(([k, v]) => k.includes('\u0000') || holdsNul(v));
  return false;
}

/** The operation of an operationId, from the contract's tables. */
export const routeOf = operationOf;

/**
 * Validates path parameters, query (unknown parameters are 400) and the JSON body of one
 * operation against the contract's schemas, and leaves the result in `res.locals.input`. `at` is
 * the path it is mounted at when that is not the operation's own (where the gateway forwards it):
 * only the path parameters that path names are checked.
 */
export function validateOperation(operationId: string, at?: string) {
  const route = routeOf(operationId);
  // The public API names a body field `body.name`; the admin API and the app's routes, as they always did, `name`.
  const bodyWhere = findRoute(operationId) ? 'body' : '';
  const path = at ?? route.path;
  const cacheKey = `${operationId} ${path}`;
  let c = compiled.get(cacheKey);
  if (!c) {
    c = compileRoute(route, path);
    compiled.set(cacheKey, c);
  }
  const v = c;
  return (req: Request, res: Response, next: NextFunction) => {
    try {
      res.locals.route = route.operationId;
      const params = { ...(req.params as Record<string, string>) };
      check(v.params, params, 'path');
      const query: Record<string, unknown> = {};
      for (const [k, val] of Object.entries(req.query as Record<string, unknown>)) {
        if (!v.query.names.has(k)) throw new ApiError('VALIDATION', `query parameter ${k} is not allowed`);
        query[k] = coerce(val, v.query.schemas[k]);
      }
      check(v.query.fn, query, 'query');
      let body: Record<string, unknown> = {};
      if (v.body && hasBody(req) && !req.is(JSON_TYPES)) {
        // A body the JSON parser skipped (another or an unreadable Content-Type) was never read:
        // answering as if it were empty would act on a request the caller did not send.
        throw new ApiError('VALIDATION', 'body must be application/json');
      }
      if (v.body) {
        const raw = req.body as unknown;
        // An array is never an object body, even where the body may be left out (the admin API's).
        if (Array.isArray(raw)) throw new ApiError('VALIDATION', 'body must be a JSON object');
        if (raw === undefined || raw === null || typeof raw !== 'object') {
          if (route.body?.required) throw new ApiError('VALIDATION', 'body must be a JSON object');
        } else {
          body = raw as Record<string, unknown>;
        }
        check(v.body, body, bodyWhere);
      } else if (!route.body && bodyWhere && req.body !== undefined) {
        // A public route that takes no body (retry, deleting a memory item): a JSON body holding a
        // field is refused as an unknown field is on every other route; none, or `{}`, passes.
        const raw = req.body as unknown;
        if (typeof raw !== 'object' || raw === null || Array.isArray(raw))
          throw new ApiError('VALIDATION', 'this route takes no body');
        const [field] = Object.keys(raw);
        if (field !== undefined) throw new ApiError('VALIDATION', `body.${field} is not allowed`);
      }
      // Checked last, so that the schema's own message wins where it already refuses the value.
      const nul = (['path', 'query', 'body'] as const).find((where, i) => holdsNul([params, query, body][i]));
      if (nul) throw new ApiError('VALIDATION', `the ${nul} must not contain the NUL character (U+0000)`);
      res.locals.input = { params, query, body } satisfies ValidInput;
      next();
    } catch (err) {
      next(err);
    }
  };
}

export function inputOf(res: Response): ValidInput {
  return res.locals.input as ValidInput;
}

const utf8 = new TextDecoder('utf-8', { fatal: true });

/**
 * A key's length in characters (code points), as the contract counts them. Node reads a header's
 * bytes one character each (latin1), so a header key sent as UTF-8 is counted decoded; the key
 * itself is kept as read (its replays match as before).
 */
function keyCharacters(key: string): number {
  if (/^[\x00-\x7f]*$/.test(key) || !/^[\x00-\xff]*$/.test(key)) return [...key].length;
  try {
    return [...utf8.decode(Buffer.from(key, 'latin1'))].length;
  } catch {
    return [...key].length;
  }
}

/**
 * An Idempotency-Key as the three spending routes take it: trimmed, or null when none was sent;
 * 400 VALIDATION outside the contract's length (the header of submit and the Asks, or the Asks'
 * body field).
 */
export function readIdempotencyKey(raw: unknown): string | null {
  if (raw === undefined || raw === null) return null;
  const key = String(raw).trim();
  const length = keyCharacters(key);
  if (length < LIMITS.idempotencyKeyMin || length > LIMITS.idempotencyKeyMax) {
    throw new ApiError(
      'VALIDATION',
      `Idempotency-Key must be ${LIMITS.idempotencyKeyMin} to ${LIMITS.idempotencyKeyMax} characters.`,
    );
  }
  return key;
}

const multipartCompiled = new Map<string, ValidateFunction>();

/**
 * The text parts of an operation's multipart body, checked against the body schema without its
 * binary parts (an unlisted part, a value out of its enum or bounds is 400 VALIDATION naming it),
 * typed as `pnpm contract:types` generated them. The binary parts are the reader's (it streams them).
 */
export function validMultipartFields<Op extends OperationId>(
  operationId: Op,
  fields: Record<string, string>,
): OperationInput<Op>['body'] {
  let fn = multipartCompiled.get(operationId);
  if (!fn) {
    const body = operationOf(operationId).body;
    if (body?.contentType !== 'multipart/form-data') throw new Error(`${operationId} takes no multipart body`);
    fn = ajv.compile(withoutBinaryParts(body.schema));
    multipartCompiled.set(operationId, fn);
  }
  const data = { ...fields };
  check(fn, data, '');
  if (holdsNul(data)) throw new ApiError('VALIDATION', 'the body must not contain the NUL character (U+0000)');
  return data as OperationInput<Op>['body'];
}
