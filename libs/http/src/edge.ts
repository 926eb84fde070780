import { randomUUID } from 'node:crypto';
import type { ServerResponse } from 'node:http';
import type { Logger } from 'pino';
import { ApiError } from '@mm/platform';

/**
 * The one HTTP edge every service shares, express and plain node:http alike: the error writer,
 * the plain-text 404, the Bearer parser, and the request-shape checks that must never reach a 500.
 */

/** The auth scheme is case-insensitive (RFC 9110 section 11.1): `bearer svc_...` is a Bearer header. */
const BEARER = /^Bearer +(\S+) *$/i;

/** The credential of an `Authorization: Bearer <credential>` header, or null when there is none. */
export function parseBearer(header: string | undefined): string | null {
  if (!header) return null;
  return BEARER.exec(header)?.[1] ?? null;
}

/** The plain-text 404 of every unknown path (ARCHITECTURE.md section 3). */
export function writeNotFound(res: ServerResponse): void {
  const body = 'Not Found';
  res.writeHead(404, { 'content-type': 'text/plain; charset=utf-8', 'content-length': Buffer.byteLength(body) });
  res.end(body);
}

/** JSON that parses but is not an object or array (`null`, `"x"`, `3`), which the strict parser refuses. */
function isJsonScalar(body: unknown): boolean {
  if (typeof body !== 'string') return false;
  try {
    const v: unknown = JSON.parse(body);
    return v === null || typeof v !== 'object';
  } catch {
    return false;
  }
}

/**
 * Turns what a body parser or the HTTP layer threw into the contract's error: a request the
 * server cannot read (bad JSON, an unsupported charset or Content-Encoding, a body that ends
 * early, too deep or too large) is the caller's 400 VALIDATION, never a 500.
 */
export function toApiError(err: unknown): ApiError | null {
  if (err instanceof ApiError) return err;
  const e = err as { type?: string; status?: number; statusCode?: number; message?: string; code?: string };
  if (!e || typeof e !== 'object') return null;
  if (e.type === 'entity.parse.failed')
    return new ApiError(
      'VALIDATION',
      isJsonScalar((e as { body?: unknown }).body) ? 'Body must be a JSON object.' : 'Body is not valid JSON.',
    );
  if (e.type === 'entity.too.large') return new ApiError('VALIDATION', 'Body is too large.');
  if (e.type === 'charset.unsupported') return new ApiError('VALIDATION', 'Body must be UTF-8 (charset=utf-8).');
  if (e.type === 'encoding.unsupported')
    return new ApiError('VALIDATION', 'Content-Encoding is not supported; send the body uncompressed.');
  // A compressed body that does not decompress (zlib's own words, such as "incorrect header check", say nothing to a caller).
  if (typeof e.code === 'string' && e.code.startsWith('Z_'))
    return new ApiError('VALIDATION', 'The body does not decompress as its Content-Encoding says.');
  if (e.type === 'request.aborted' || e.code === 'ECONNRESET')
    return new ApiError('VALIDATION', 'The body ended before its declared length.');
  const status = e.status ?? e.statusCode;
  if (typeof status === 'number' && status >= 400 && status < 500 && typeof e.message === 'string')
    return new ApiError('VALIDATION', e.message);
  return null;
}

/**
 * Writes an error in the contract's envelope (no schemaVersion) with the error's headers. Anything
 * that is not an ApiError becomes 500 INTERNAL_ERROR with the code alone; the log line carries an
 * error id, the request id and the stack, the client sees neither.
 */
export function writeError(res: ServerResponse, err: unknown, logger: Logger, reqId?: string): void {
  let apiErr = toApiError(err);
  if (!apiErr) {
    const errorId = randomUUID();
    logger.error({ errorId, reqId, err }, 'unexpected error');
    apiErr = new ApiError('INTERNAL_ERROR', 'Unexpected failure.');
  }
  if (res.headersSent) {
    // Part of an answer already left: the only honest thing left is to cut the connection.
    if (!res.writableEnded) res.destroy();
    return;
  }
  const body = JSON.stringify(apiErr.toBody());
  res.writeHead(apiErr.status, {
    ...apiErr.headers,
    'content-type': 'application/json; charset=utf-8',
    'content-length': Buffer.byteLength(body),
  });
  res.end(body);
}

/** True when every %-escape of a URL (path and query) is two hex digits and they decode as UTF-8. */
export function isWellEncoded(url: string): boolean {
  if (!url.includes('%')) return true;
  try {
    decodeURIComponent(url);
    return true;
  } catch {
    return false;
  }
}

/** 400 VALIDATION for a URL with a malformed %-escape (it could only be misread). */
export function checkUrlEncoding(url: string): void {
  if (!isWellEncoded(url)) throw new ApiError('VALIDATION', 'The URL has a malformed percent-encoding (%XX).');
}
