import type { ErrorCode } from '@mm/contract';
import { ApiError } from '@mm/http';
import { CHECK_MESSAGES } from '../domain/checks';
import type { GateResult } from '../services/access-gate';

/** A refusal of one of the contract's checks (checks.ts), with its human message. */
export function refusal(code: ErrorCode, headers?: Record<string, string>): ApiError {
  return new ApiError(code, CHECK_MESSAGES[code] ?? code, undefined, headers);
}

/**
 * RATE_LIMITED with its Retry-After, given only after the gate's slow-down: a client (a token, or an
 * address sending junk) that keeps sending past its budget waits for its answer (access-gate.ts).
 */
export async function rateLimited(gate: Pick<GateResult, 'retryAfter' | 'slowDownMs'>): Promise<ApiError> {
  if (gate.slowDownMs > 0) await new Promise((r) => setTimeout(r, gate.slowDownMs));
  return refusal('RATE_LIMITED', { 'Retry-After': String(gate.retryAfter) });
}
