import type { ErrorCode } from './generated/catalog';

/** An error answer of the API: the contract's `code` (branch on it), its message and details. */
export class MmApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: ErrorCode | string,
    message: string,
    readonly details: Record<string, unknown> | undefined,
    /** Seconds from the Retry-After header; undefined when absent (waiting will not help). */
    readonly retryAfterSeconds: number | undefined,
    /** The request that was answered so (to name what a TOKEN_SCOPE refused, for example). */
    readonly request?: { method: string; url: string },
  ) {
    super(message);
    this.name = 'MmApiError';
  }
}

/**
 * The request never got an answer (connection refused or cut, DNS, a timeout). The message names
 * the request and the network's reason: `GET http://host/api/v1/whoami: connect ECONNREFUSED …`.
 */
export class MmTransportError extends Error {
  constructor(
    message: string,
    override readonly cause: unknown,
    /** The request's method and URL, when known. */
    readonly method?: string,
    readonly url?: string,
  ) {
    super(message);
    this.name = 'MmTransportError';
  }
}

type Failure = { message?: string; code?: unknown; cause?: unknown; errors?: unknown[] };
const isFailure = (e: unknown): e is Failure => typeof e === 'object' && e !== null && 'message' in e;

/**
 * The network's own reason under a failed request (`connect ECONNREFUSED 127.0.0.1:8999`,
 * `getaddrinfo ENOTFOUND …`): undici wraps it as `fetch failed` { cause }, and as an AggregateError
 * when every address of a host refused. Read by shape: those errors come from Node's own realm,
 * where `instanceof Error` may not hold.
 */
export function transportCause(err: unknown): { code?: string; message: string } {
  let e = (err instanceof MmTransportError ? err.cause : err) as Failure | undefined;
  while (isFailure(e?.cause)) e = e.cause;
  if (isFailure(e) && !e.message && isFailure(e.errors?.[0])) e = e.errors[0];
  if (!isFailure(e)) return { message: err instanceof Error ? err.message : String(err) };
  const code = typeof e.code === 'string' ? e.code : undefined;
  const message = e.message ?? '';
  return {
    ...(code ? { code } : {}),
    message: code && !message.includes(code) ? `${code} ${message}`.trim() : message || code || 'no answer',
  };
}

/**
 * Reads an error answer. The body is `{ error: { code, message, details? } }`; the bundle's
 * NOT_READY puts `details` beside `error` (contract); a plain-text 404 (not an API route) has no code.
 */
export async function errorOf(res: Response, request?: { method: string; url: string }): Promise<MmApiError> {
  const text = await res.text().catch(() => '');
  let code = `HTTP_${res.status}`;
  let message = text.slice(0, 200) || res.statusText;
  let details: Record<string, unknown> | undefined;
  try {
    const body = JSON.parse(text) as {
      error?: { code?: string; message?: string; details?: Record<string, unknown> };
      details?: Record<string, unknown>;
    };
    if (body.error?.code) {
      code = body.error.code;
      message = body.error.message ?? code;
      details = body.error.details ?? body.details;
    }
  } catch {
    // not JSON: keep the text
  }
  const retryAfter = res.headers.get('retry-after');
  const seconds = retryAfter !== null && /^\d+$/.test(retryAfter.trim()) ? Number(retryAfter) : undefined;
  return new MmApiError(res.status, code, message, details, seconds, request);
}
