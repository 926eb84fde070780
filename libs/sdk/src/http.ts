import { errorOf, MmApiError, MmTransportError, transportCause } from './errors';
import { redactUrl } from './domain/service-url';
import { DEFAULT_RETRY, isRepeatable, retryDelayMs, type RetryPolicy } from './domain/retry-policy';

/** The API root (ending in `/api/v1`) of a gateway URL or of an API root. */
export function apiRoot(url: string): string {
  const trimmed = url.replace(/\/+$/, '');
  return trimmed.endsWith('/api/v1') ? trimmed : `${trimmed}/api/v1`;
}

/** Resolves after `ms`, or rejects at once with the signal's reason. */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal!.reason);
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

export interface Attempt {
  method: string;
  /** The request's URL, named when the network fails. */
  url: string;
  headers: Headers;
  signal?: AbortSignal;
  /** Makes the request afresh for each attempt (a body stream can be read once). */
  send: () => Promise<Response>;
}

/**
 * Sends a request until it succeeds or the contract's retry guidance says stop; answers the first
 * successful Response, or throws MmApiError (with the contract's code) / MmTransportError.
 */
export async function sendWithRetry(a: Attempt, policy: RetryPolicy = DEFAULT_RETRY): Promise<Response> {
  const repeatable = isRepeatable(a.method, a.headers);
  for (let attempt = 1; ; attempt++) {
    let res: Response;
    try {
      res = await a.send();
    } catch (err) {
      if (a.signal?.aborted) throw err;
      const wait = retryDelayMs({ attempt, repeatable }, policy);
      if (wait === null) {
        const cause = transportCause(err).message;
        throw new MmTransportError(`${a.method} ${redactUrl(a.url)}: ${cause}`, err, a.method, a.url);
      }
      await sleep(wait, a.signal);
      continue;
    }
    if (res.ok) return res;
    const error: MmApiError = await errorOf(res, { method: a.method, url: a.url });
    const wait = retryDelayMs(
      { attempt, repeatable, status: error.status, code: error.code, retryAfterSeconds: error.retryAfterSeconds },
      policy,
    );
    if (wait === null) throw error;
    await sleep(wait, a.signal);
  }
}
