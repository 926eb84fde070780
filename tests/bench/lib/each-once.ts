/**
 * A load run for requests that can each be sent only once (naming skip: a meeting leaves NAMING
 * with its first skip, a second answers 409). wrk cycles through its requests, so this runs in the
 * bench's own process instead: `connections` keep-alive sockets, each sending the next unsent
 * request as soon as its previous answer arrived (a closed loop like wrk's), a warm-up of the
 * first requests, then a measured run until `duration` seconds pass or the requests run out.
 * Its figures have wrk's shape (`LoadMeasurement`), the CPU of this process is shown as `client`.
 */
import http from 'node:http';
import { cpuWindow, type LoadMeasurement } from './load';
import { loadAverage } from './proc';
import { BenchError, type CaseContext, type ServiceName } from './types';
import type { RotatedRequest, WrkResult } from './wrk';

interface Answered {
  status: number;
  ms: number;
  text: string;
}

function send(agent: http.Agent, origin: URL, r: RotatedRequest, timeoutMs = 5_000): Promise<Answered> {
  const started = process.hrtime.bigint();
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        agent,
        host: origin.hostname,
        port: origin.port,
        method: (r.method ?? 'GET').toUpperCase(),
        path: r.path,
        headers: { ...r.headers, ...(r.body ? { 'content-length': String(r.body.length) } : {}) },
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (d: string) => (text += d));
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, ms: Number(process.hrtime.bigint() - started) / 1e6, text }),
        );
        res.on('error', reject);
      },
    );
    req.setTimeout(timeoutMs, () => req.destroy(new Error(`timeout (${timeoutMs / 1000} s)`)));
    req.on('error', reject);
    req.end(r.body);
  });
}

/** Sends `requests` in order over `connections` sockets; stops at `untilMs` (performance.now) or when none are left. */
async function closedLoop(
  origin: URL,
  requests: RotatedRequest[],
  connections: number,
  untilMs: number,
): Promise<{ latencies: number[]; failures: string[]; seconds: number }> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: connections });
  const latencies: number[] = [];
  const failures: string[] = [];
  let next = 0;
  const t0 = performance.now();
  const worker = async () => {
    while (next < requests.length && performance.now() < untilMs) {
      const r = requests[next++];
      try {
        const a = await send(agent, origin, r);
        if (a.status >= 400)
          failures.push(`${r.method ?? 'GET'} ${r.path} answered ${a.status}: ${a.text.slice(0, 200)}`);
        else latencies.push(a.ms);
      } catch (err) {
        failures.push(`${r.method ?? 'GET'} ${r.path}: ${(err as Error).message}`);
      }
    }
  };
  await Promise.all(Array.from({ length: connections }, worker));
  agent.destroy();
  return { latencies, failures, seconds: (performance.now() - t0) / 1000 };
}

function percentile(sorted: number[], p: number): number {
  if (!sorted.length) return 0;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))];
}

/** A WrkResult from this client's own counts (no raw wrk text; `exact` null). */
function asWrkResult(latencies: number[], seconds: number): WrkResult {
  const sorted = [...latencies].sort((a, b) => a - b);
  const avg = sorted.reduce((a, b) => a + b, 0) / Math.max(1, sorted.length);
  return {
    requests: sorted.length,
    durationSeconds: seconds,
    requestsPerSec: sorted.length / seconds,
    latencyMs: {
      avg,
      max: sorted[sorted.length - 1] ?? 0,
      p50: percentile(sorted, 50),
      p75: percentile(sorted, 75),
      p90: percentile(sorted, 90),
      p99: percentile(sorted, 99),
    },
    non2xx: 0,
    socketErrors: { connect: 0, read: 0, write: 0, timeout: 0 },
    exact: null,
    raw: '',
  };
}

/**
 * Warm-up on the first `warmupRequests`, then the measured run on the rest (at most
 * `ctx.opts.duration` seconds). Any answer >= 400 or socket error fails the bench.
 */
export async function measureEachOnce(
  ctx: CaseContext,
  target: { label: string; origin: string; requests: RotatedRequest[]; warmupRequests: number },
  services: ServiceName[],
): Promise<LoadMeasurement> {
  const { opts } = ctx;
  const origin = new URL(target.origin);
  const fail = (what: string, failures: string[]) => {
    if (failures.length)
      throw new BenchError(`${target.label} (${what}): ${failures.length} requests failed, e.g. ${failures[0]}`);
  };
  if (target.warmupRequests > 0) {
    ctx.log(`${target.label}: warm-up on ${target.warmupRequests} requests`);
    fail(
      'warm-up',
      (await closedLoop(origin, target.requests.slice(0, target.warmupRequests), opts.connections, Infinity)).failures,
    );
  }
  ctx.checkAborted();
  ctx.stack.assertAlive();
  const rest = target.requests.slice(target.warmupRequests);
  const loadBefore = loadAverage();
  ctx.log(
    `${target.label}: measuring at most ${opts.duration} s or ${rest.length} requests (${opts.connections} connections, each request once; load average ${loadBefore.toFixed(2)})`,
  );
  const window = cpuWindow(ctx, services, () => process.pid, [], 'client');
  const run = await closedLoop(origin, rest, opts.connections, performance.now() + opts.duration * 1000);
  window.end();
  const cpu = await window.done;
  ctx.checkAborted();
  ctx.stack.assertAlive();
  fail('measured', run.failures);
  if (!run.latencies.length) throw new BenchError(`${target.label}: no request completed`);
  return { label: target.label, wrk: asWrkResult(run.latencies, run.seconds), cpu, loadBefore };
}

/**
 * Requests sent open loop at a fixed rate, round robin over `requests`, each without waiting for
 * the one before (a submit holds its connection for its whole upload and probe: in wrk's closed
 * loop a few would stall the connections of every read). `stop()` waits for those in flight.
 */
export class OpenLoop {
  private readonly agent = new http.Agent({ keepAlive: true });
  private readonly latencies: number[] = [];
  private readonly failures: string[] = [];
  private readonly inFlight = new Set<Promise<void>>();
  private timer: NodeJS.Timeout | null = null;
  private next = 0;
  private sent = 0;
  private started = 0;

  constructor(
    private readonly origin: URL,
    private readonly requests: RotatedRequest[],
    readonly perSecond: number,
  ) {}

  start(): void {
    if (this.perSecond <= 0 || !this.requests.length) return;
    this.started = performance.now();
    const tick = () => {
      // As many as are due by now (timers fire late on a loaded machine).
      const due = Math.floor(((performance.now() - this.started) / 1000) * this.perSecond);
      while (this.sent < due) {
        const r = this.requests[this.next++ % this.requests.length];
        this.sent++;
        // A submit takes seconds on a loaded machine; what it costs is the figure, not a failure.
        const p = send(this.agent, this.origin, r, 60_000).then(
          (a) =>
            void (a.status >= 400
              ? this.failures.push(`${r.method ?? 'GET'} ${r.path} answered ${a.status}: ${a.text.slice(0, 200)}`)
              : this.latencies.push(a.ms)),
          (err: Error) => void this.failures.push(`${r.method ?? 'GET'} ${r.path}: ${err.message}`),
        );
        this.inFlight.add(p);
        void p.finally(() => this.inFlight.delete(p));
      }
      this.timer = setTimeout(tick, 20);
    };
    tick();
  }

  /** Stops sending, waits for the answers in flight; throws on any failure. */
  async stop(label: string): Promise<{ sent: number; perSecond: number; p50: number; p99: number }> {
    if (this.timer) clearTimeout(this.timer);
    await Promise.all([...this.inFlight]);
    this.agent.destroy();
    if (this.failures.length)
      throw new BenchError(`${label}: ${this.failures.length} requests failed, e.g. ${this.failures[0]}`);
    const sorted = [...this.latencies].sort((a, b) => a - b);
    return { sent: this.sent, perSecond: this.perSecond, p50: percentile(sorted, 50), p99: percentile(sorted, 99) };
  }
}
