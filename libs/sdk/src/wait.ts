import { MmApiError } from './errors';
import { sleep } from './http';
import { DEFAULT_POLL, isSettled, pollDelayMs, type PollSchedule } from './domain/poll-schedule';
import type { MeetingMemoryClient, RecordingStatus } from './client';

export interface WaitOptions {
  /** Called with every status read (the first read included). */
  onProgress?: (status: RecordingStatus) => void;
  signal?: AbortSignal;
  /** Default: first poll after 5 s, doubling to the contract's once a minute. */
  schedule?: PollSchedule;
  /** Keep waiting while the meeting is at NAMING (it goes on when named, skipped or at the deadline). Default false: stop at NAMING. */
  throughNaming?: boolean;
  /** How many times a FAILED meeting with error.retryable is retried (needs recordings:write). Default 3. */
  maxRetries?: number;
}

/**
 * Polls a meeting's status until READY, FAILED or (unless throughNaming) NAMING, following the
 * contract's guidance: about once a minute (after quicker first polls), Retry-After honoured on a
 * 429, and at FAILED with error.retryable true, a retry and more waiting (a few times; a 409
 * NOT_FAILED means it recovered by itself). Answers the last status read.
 */
export async function waitForReady(
  client: MeetingMemoryClient,
  id: string,
  opts: WaitOptions = {},
): Promise<RecordingStatus> {
  const schedule = opts.schedule ?? DEFAULT_POLL;
  let retries = 0;
  for (let n = 1; ; n++) {
    let retryAfter: number | undefined;
    let status: RecordingStatus | undefined;
    try {
      status = await client.status(id, opts.signal);
    } catch (err) {
      // The client already waited out short Retry-Afters; a longer one is waited here.
      if (!(err instanceof MmApiError && err.code === 'RATE_LIMITED' && err.retryAfterSeconds !== undefined)) throw err;
      retryAfter = err.retryAfterSeconds;
    }
    if (status) {
      opts.onProgress?.(status);
      if (status.status === 'FAILED' && status.error?.retryable && retries < (opts.maxRetries ?? 3)) {
        retries++;
        if (await retried(client, id)) continue;
      }
      if (isSettled(status.status, opts.throughNaming ?? false)) return status;
    }
    await sleep(pollDelayMs(n, schedule, retryAfter), opts.signal);
  }
}

/** Asks for a retry; false when the token may not (then the failure is reported as read). */
async function retried(client: MeetingMemoryClient, id: string): Promise<boolean> {
  try {
    await client.retryRecording(id);
    return true;
  } catch (err) {
    if (err instanceof MmApiError && err.code === 'NOT_FAILED') return true;
    if (err instanceof MmApiError && (err.code === 'TOKEN_SCOPE' || err.code === 'SCOPE_DISABLED')) return false;
    throw err;
  }
}
