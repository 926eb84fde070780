/**
 * When a request may be sent again, and after how long (the contract's retry guidance). Pure.
 *
 * - A request is repeatable when its method is GET, PUT or DELETE, or when it carries an
 *   Idempotency-Key (the spending POSTs): a repeat with the same key is never charged twice.
 * - 429 with Retry-After: the request did not run; wait that long (any request). 429 without it
 *   will not pass by waiting. 503 UPLOAD_IN_PROGRESS: wait Retry-After, resend the same request.
 * - Network errors and 5xx: only repeatable requests, with growing waits.
 * - Every other error is final for this call (do-not-repeat codes, changes needed, 409s).
 */
export interface RetryInput {
  attempt: number;
  repeatable: boolean;
  /** undefined for a network error. */
  status?: number;
  code?: string;
  retryAfterSeconds?: number;
}

export interface RetryPolicy {
  maxAttempts: number;
  baseDelayMs: number;
  maxDelayMs: number;
  /** Longest Retry-After honoured; a longer one is returned to the caller instead. */
  maxRetryAfterSeconds: number;
}

export const DEFAULT_RETRY: RetryPolicy = {
  maxAttempts: 5,
  baseDelayMs: 500,
  maxDelayMs: 30_000,
  maxRetryAfterSeconds: 120,
};

/** Milliseconds to wait before the next attempt, or null to give up and report. */
export function retryDelayMs(input: RetryInput, policy: RetryPolicy = DEFAULT_RETRY): number | null {
  if (input.attempt >= policy.maxAttempts) return null;
  const backoff = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** (input.attempt - 1));
  if (input.status === undefined) return input.repeatable ? backoff : null;
  if (input.status === 429 || input.code === 'UPLOAD_IN_PROGRESS') {
    if (input.retryAfterSeconds === undefined || input.retryAfterSeconds > policy.maxRetryAfterSeconds) return null;
    return input.retryAfterSeconds * 1000;
  }
  if (input.status >= 500 && input.repeatable) return backoff;
  return null;
}

/** Whether a request may be sent twice: idempotent by method, or made so by an Idempotency-Key. */
export function isRepeatable(method: string, headers: Headers): boolean {
  return ['GET', 'HEAD', 'PUT', 'DELETE'].includes(method.toUpperCase()) || headers.has('idempotency-key');
}
