import { ERROR_CODES, type ErrorCode } from '@mm/contract';

/**
 * The one error type of the system. The HTTP status comes from the contract's catalog,
 * never from the throw site.
 */
export class ApiError extends Error {
  readonly status: number;
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly details?: Record<string, unknown>,
    /** Extra response headers, such as Retry-After. */
    readonly headers?: Record<string, string>,
  ) {
    super(message);
    this.status = ERROR_CODES[code];
  }

  /** The contract's error envelope (no schemaVersion). */
  toBody(): { error: { code: string; message?: string; details?: Record<string, unknown> } } {
    // The contract: a 500 INTERNAL_ERROR carries its code alone (the log line has the rest).
    if (this.code === 'INTERNAL_ERROR') return { error: { code: this.code } };
    return { error: { code: this.code, message: this.message, ...(this.details ? { details: this.details } : {}) } };
  }
}

export const notFound = (what = 'Nothing the token can reach has that id.') => new ApiError('NOT_FOUND', what);
export const validation = (message: string) => new ApiError('VALIDATION', message);
