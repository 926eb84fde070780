import type { ErrorCode } from '@mm/contract';

/** An error answer of the API: the contract's `code` (branch on it), its message and details. */
export class MmApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: ErrorCode | string,
    message: string,
    readonly details: Record<string, unknown> | undefined,
    /** Seconds from the Retry-After header; undefined when absent (waiting will not help). */
    readonly retryAfterSeconds: number | undefined,
  ) {
    super(message);
    this.name = 'MmApiError';
  }
}

/** The request never got an answer (connection refused or cut, DNS, a timeout). */
export class MmTransportError extends Error {
  constructor(
    message: string,
    override readonly cause: unknown,
  ) {
    super(message);
    this.name = 'MmTransportError';
  }
}

/**
 * Reads an error answer. The body is `{ error: { code, message, details? } }`; the bundle's
 * NOT_READY puts `details` beside `error` (contract); a plain-text 404 (not an API route) has no code.
 */
export async function errorOf(res: Response): Promise<MmApiError> {
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
  return new MmApiError(res.status, code, message, details, seconds);
}
