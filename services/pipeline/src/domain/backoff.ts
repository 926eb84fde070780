/**
 * Waiting between tries of a remote call: exponential backoff with jitter, and the server's own
 * Retry-After when it sends one.
 */

export interface BackoffRules {
  /** Wait before the second try (the first retry), in ms. */
  baseMs: number;
  /** Longest wait between two tries. */
  maxMs: number;
}

/**
 * Wait before retry number `retry` (1 = the first): base·2^(retry-1), capped, of which a random
 * half is kept ("equal jitter"), so many clients failing at once do not come back at once and
 * none comes back immediately.
 */
export function backoffMs(retry: number, rules: BackoffRules, random: () => number = Math.random): number {
  const full = Math.min(rules.maxMs, rules.baseMs * 2 ** Math.max(0, retry - 1));
  return Math.round(full / 2 + (full / 2) * random());
}

/**
 * A Retry-After header in ms: delta seconds or an HTTP date; null when absent or unreadable.
 * OpenAI also sends retry-after-ms, which wins when present.
 */
export function retryAfterMs(headers: { get(name: string): string | null }, now = Date.now()): number | null {
  const ms = Number(headers.get('retry-after-ms'));
  if (headers.get('retry-after-ms') !== null && Number.isFinite(ms) && ms >= 0) return Math.round(ms);
  const value = headers.get('retry-after');
  if (value === null || value.trim() === '') return null;
  const seconds = Number(value);
  if (Number.isFinite(seconds)) return seconds >= 0 ? Math.round(seconds * 1000) : null;
  const at = Date.parse(value);
  return Number.isFinite(at) ? Math.max(0, at - now) : null;
}
