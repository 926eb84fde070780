/** One request at a time, timed on the client: latency percentiles of GET requests. */
import { BenchError } from './types';

export function percentile(sorted: number[], p: number): number {
  if (!sorted.length) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))];
}

export interface LatencySummary {
  n: number;
  p50: number;
  p99: number;
  max: number;
}

export function summarize(samples: number[]): LatencySummary {
  const s = [...samples].sort((a, b) => a - b);
  return { n: s.length, p50: percentile(s, 50), p99: percentile(s, 99), max: s[s.length - 1] ?? NaN };
}

/** GETs a URL and returns its JSON and the milliseconds it took; a status other than 200 fails the bench. */
export async function timedGet<T>(url: string, headers: Record<string, string>): Promise<{ ms: number; body: T }> {
  const started = performance.now();
  const res = await fetch(url, { headers, signal: AbortSignal.timeout(30_000) });
  const text = await res.text();
  const ms = performance.now() - started;
  if (res.status !== 200) throw new BenchError(`GET ${url} answered ${res.status}: ${text.slice(0, 300)}`);
  return { ms, body: JSON.parse(text) as T };
}
