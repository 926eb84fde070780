import type { FailureCode } from '@mm/contract';

/**
 * The one error an engine throws. `code` is the contract's failure code, so the pipeline can
 * copy it onto the meeting without a mapping table (NO_SPEECH and AUDIO_CORRUPT are final,
 * TRANSCRIBE_FAILED and GENERATE_FAILED can be retried).
 */
export class EngineError extends Error {
  constructor(
    readonly code: FailureCode,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = 'EngineError';
  }

  get retryable(): boolean {
    return this.code === 'TRANSCRIBE_FAILED' || this.code === 'GENERATE_FAILED';
  }
}

/** Wraps anything thrown by a step into an EngineError, keeping one that already is. */
export function asEngineError(err: unknown, code: FailureCode, what: string): EngineError {
  if (err instanceof EngineError) return err;
  const detail = err instanceof Error ? err.message : String(err);
  return new EngineError(code, `${what}: ${detail}`, { cause: err });
}
