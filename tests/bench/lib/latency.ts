/** One request at a time, timed on the client: latency percentiles of GET requests. */
import http from 'node:http';
import { BenchError } from './types';

/**
 * node:http on kept-alive connections, not fetch: undici's fetch added about 1.5 ms of the
 * client's own work to every request on this machine (list page p50 4.3–5.7 ms with fetch, 2.9–4.7
 * ms with node:http, same stack, same minutes), which is not the server's latency.
 */
const agent = new http.Agent({ keepAlive: true, maxSockets: 8 });

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
  const { status, text } = await new Promise<{ status: number; text: string }>((resolve, reject) => {
    const req = http.get(url, { headers, agent, timeout: 30_000 }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString('utf8') }));
      res.on('error', reject);
    });
    req.on('timeout', () => req.destroy(new BenchError(`GET ${url} took over 30 s`)));
    req.on('error', reject);
  });
  const ms = performance.now() - started;
  if (status !== 200) throw new BenchError(`GET ${url} answered ${status}: ${text.slice(0, 300)}`);
  return { ms, body: JSON.parse(text) as T };
}
