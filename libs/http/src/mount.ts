import type { NextFunction, Request, RequestHandler, Response, Router } from 'express';
import {
  forwardOf,
  operationOf,
  type ForwardedOperationId,
  type ForwardedOperationInput,
  type JsonSchema,
  type OperationId,
  type OperationInput,
  type OperationOutput,
  type TextAnswer,
} from '@mm/contract';
import { validateOperation } from './validate';
import { principalOf } from './app';
import { ApiError } from '@mm/platform';

/** `/series/{id}` as express spells it: `/series/:id`. */
export function expressPath(path: string): string {
  return path.replace(/\{(\w+)\}/g, ':$1');
}

/** What a handler returns when it wrote the answer itself (a forward, a stream, an answer of another shape). */
export const ANSWERED: unique symbol = Symbol('answered');
export type Answered = typeof ANSWERED;

/** The request and response behind a handler's typed input, for what the input does not carry. */
export interface OperationContext {
  req: Request;
  res: Response;
}

export type OperationHandler<Op extends OperationId> = (
  input: OperationInput<Op>,
  ctx: OperationContext,
) => Promise<OperationOutput<Op> | Answered>;

export interface MountOptions {
  /** Checks the contract puts before validation (a switched-off feature's 404, a rule's own message). */
  guards?: RequestHandler[];
}

/** The validated request of an operation, as `validateOperation` left it, typed by the operation. */
function inputFor<Input>(req: Request, res: Response, headerNames: readonly string[], jsonBody: boolean): Input {
  const headers: Record<string, string> = {};
  for (const name of headerNames) {
    const v = req.headers[name];
    if (typeof v === 'string') headers[name] = v;
  }
  // `res.locals` is express's untyped bag: validateOperation left there what the schemas admitted.
  const validated = res.locals.input;
  return { ...validated, headers, body: jsonBody ? validated.body : undefined };
}

function isTextAnswer(out: unknown): out is TextAnswer<string> {
  return (
    typeof out === 'object' &&
    out !== null &&
    typeof (out as { contentType?: unknown }).contentType === 'string' &&
    typeof (out as { text?: unknown }).text === 'string'
  );
}

/**
 * A JSON answer written to node's response directly: the headers and bytes express's `res.json`
 * sends (Content-Type `application/json; charset=utf-8`, Content-Length, the body), without its
 * per-answer settings look-ups, Content-Type parsing and freshness check (the services' profiles:
 * express's json/send/status and the content-type and mime look-ups ~4% of a read's CPU). What
 * express treats specially goes through `res.json` as before: a HEAD, a status other than 200 or
 * 201, a conditional request (express answers `If-None-Match: *` with 304), a Content-Type or
 * Transfer-Encoding a guard or the handler set, an app with ETags or JSON settings, an answer JSON
 * cannot spell.
 */
/** The app answers JSON as express does by default, with no ETag (createServiceApp turns it off). */
function plainJsonSettings(req: Request): boolean {
  const app = req.app;
  return (
    typeof app.get('etag fn') !== 'function' &&
    app.get('json replacer') === undefined &&
    app.get('json spaces') === undefined &&
    !app.get('json escape')
  );
}

function sendJson(req: Request, res: Response, status: number, body: unknown): void {
  const plain =
    (status === 200 || status === 201) &&
    req.method === 'GET' &&
    req.headers['if-none-match'] === undefined &&
    req.headers['if-modified-since'] === undefined &&
    !res.hasHeader('Content-Type') &&
    !res.hasHeader('Transfer-Encoding') &&
    plainJsonSettings(req);
  const text = plain ? JSON.stringify(body) : undefined;
  if (text === undefined) {
    res.status(status).json(body);
    return;
  }
  res.statusCode = status;
  res.setHeader('Content-Type', 'application/json; charset=utf-8');
  res.setHeader('Content-Length', Buffer.byteLength(text));
  res.end(text);
}

/** Sends a success body with schemaVersion 1 first. */
export function sendOk(res: Response, body: Record<string, unknown>, status = 200): void {
  sendJson(res.req, res, status, { schemaVersion: 1, ...body });
}

/**
 * THE way a route is mounted: by operationId, from any of the contract's tables (public, admin,
 * the app's). Its method and path come from the table (no path is spelled twice); `guards` run
 * first, then the validation of its parameters, query and body against the table's schemas, then
 * the handler with the input typed as `pnpm contract:types` generated it. What the handler
 * returns is the answer: sent with the operation's success status, with `schemaVersion` when the
 * answer's schema has it; a TextAnswer is sent as its content type. Mount literal paths before
 * templated ones (`/series/readable` before `/series/{id}`).
 */
export function mountOperation<Op extends OperationId>(
  router: Router,
  operationId: Op,
  handler: OperationHandler<Op>,
  options: MountOptions = {},
): void {
  mountAt(router, operationId, operationOf(operationId).path, handler, options);
}

export type ForwardedHandler<Op extends ForwardedOperationId> = (
  input: ForwardedOperationInput<Op>,
  ctx: OperationContext,
) => Promise<OperationOutput<Op> | Answered>;

/**
 * An operation the gateway answers by forwarding it to a service (the admin API's meeting
 * routes): mounted in that service at the table's `forward` path, never spelled here, with the
 * same validation and answer as `mountOperation`. The input holds the path parameters of the
 * forwarded path only (the gateway's own, an account in the admin path, arrive as the principal).
 */
export function mountForwarded<Op extends ForwardedOperationId>(
  router: Router,
  operationId: Op,
  handler: ForwardedHandler<Op>,
  options: MountOptions = {},
): void {
  const to = forwardOf(operationId);
  if (!to) throw new Error(`${operationId} is not forwarded by the gateway`);
  mountAt(router, operationId, to.path, handler, options);
}

/** Mounts an operation at `path` (its own, or where the gateway forwards it); `Input` is what validation leaves there. */
function mountAt<Op extends OperationId, Input>(
  router: Router,
  operationId: Op,
  path: string,
  handler: (input: Input, ctx: OperationContext) => Promise<OperationOutput<Op> | Answered>,
  options: MountOptions,
): void {
  const op = operationOf(operationId);
  const success: { status: number; schema: JsonSchema } = op.responses.find((r) => r.status < 300) ?? {
    status: 200,
    schema: {},
  };
  const versioned = Boolean((success.schema.properties as Record<string, unknown> | undefined)?.schemaVersion);
  // Read once at mounting, not per request.
  const headerNames = op.params.filter((p) => p.in === 'header').map((p) => p.name.toLowerCase());
  const jsonBody = op.body?.contentType === 'application/json';
  // Only an operation with a success answer that is not JSON (a bundle as Markdown) answers text.
  const answersText = op.responses.some(
    (r) => r.status < 300 && r.contentType !== undefined && r.contentType !== 'application/json',
  );
  const run = (req: Request, res: Response, next: NextFunction) => {
    handler(inputFor<Input>(req, res, headerNames, jsonBody), { req, res }).then((out) => {
      if (out === ANSWERED || res.headersSent) return;
      if (answersText && isTextAnswer(out)) {
        res.status(success.status).type(out.contentType).send(out.text);
        return;
      }
      sendJson(req, res, success.status, versioned ? { schemaVersion: 1, ...(out as object) } : out);
    }, next);
  };
  router[op.method](expressPath(path), ...(options.guards ?? []), validateOperation(operationId, path), run);
}

/** A guard for the app's own routes: only an `app` principal (the gateway makes it from a session) reaches them. */
export const appPrincipalOnly: RequestHandler = (_req, res, next) => {
  try {
    if (principalOf(res).source !== 'app')
      throw new ApiError('TOKEN_NOT_ACCEPTED', 'This route does not take API tokens.');
    next();
  } catch (err) {
    next(err);
  }
};
