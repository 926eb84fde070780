/**
 * One HTTP load measurement as every HTTP bench does it: a warm-up run (JIT, pools, caches),
 * then the measured wrk run with CPU sampled per process group over its steady middle.
 * Error responses or socket errors in either run fail the bench.
 */
import path from 'node:path';
import type { Stack } from './stack';
import { CpuSampler, cpuCount, loadAverage, pidsByComm, postgresBackendsOf, type CpuGroup } from './proc';
import { fmt } from './report';
import { BenchError, type CaseContext, type ServiceName } from './types';
import { runWrk, wrkProblems, type RotatedRequest, type WrkResult } from './wrk';

export interface LoadTarget {
  /** Row name in the report, e.g. `gateway /api/v1/whoami`. */
  label: string;
  url: string;
  /** Called before each wrk run (warm-up and measured), so short-lived credentials stay fresh. */
  headers: () => Promise<Record<string, string>>;
  /** A header whose value changes with every request (see WrkRun.rotateHeader). */
  rotateHeader?: { name: string; values: string[] };
  /** Whole requests in rotation (see WrkRun.rotateRequests); `url` then gives only the origin. */
  rotateRequests?: RotatedRequest[];
  /** wrk's per-request timeout (default 5 s): a slower answer counts as an error. */
  timeoutSeconds?: number;
  /** Like rotateRequests, built anew before each wrk run (requests carrying short-lived principals). */
  freshRequests?: () => Promise<RotatedRequest[]>;
  /** More processes whose CPU use is shown (e.g. a comparison server outside the stack). */
  extraGroups?: CpuGroup[];
  /** Each connection's pause between an answer and its next request (see WrkRun.delayMs). */
  delayMs?: number;
}

export interface CpuBreakdown {
  /** Percent of one core per group, in `groups` order, then `other` (everything else on the machine). */
  byGroup: Array<{ label: string; percentOfCore: number }>;
  machineBusyPercent: number;
  stealPercent: number;
  cores: number;
  /** Length of the sampled window. */
  wallSeconds: number;
}

export interface LoadMeasurement {
  label: string;
  wrk: WrkResult;
  cpu: CpuBreakdown | null;
  loadBefore: number;
}

/** The process groups whose CPU use is shown: the stack's services, then the shared infrastructure. */
export function defaultCpuGroups(
  stack: Stack,
  services: ServiceName[],
  wrkPid: () => number | null,
  database: string,
  toolLabel = 'wrk',
): CpuGroup[] {
  return [
    ...services.map((s) => ({ label: s, pids: () => stack.pids(s) })),
    // Postgres is shared: only the backends serving the bench's database count.
    { label: 'postgres', pids: () => postgresBackendsOf(database) },
    { label: 'redis', pids: () => (stack.hasPrivate('redis') ? stack.pids('redis') : pidsByComm(['redis-server'])) },
    { label: 'nats', pids: () => (stack.hasPrivate('nats') ? stack.pids('nats') : pidsByComm(['nats-server'])) },
    {
      label: toolLabel,
      pids: () => {
        const p = wrkPid();
        return p ? [p] : [];
      },
    },
  ];
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * CPU per process group over the steady middle of a load run that starts now and lasts about
 * `opts.duration` seconds (its first and last second skipped). `done` resolves once sampled;
 * `end()` cuts the window short when the run ends early (a load tool that ran out of work).
 */
export function cpuWindow(
  ctx: CaseContext,
  services: ServiceName[],
  loadToolPid: () => number | null,
  extraGroups: CpuGroup[] = [],
  toolLabel = 'wrk',
): { done: Promise<CpuBreakdown | null>; end: () => void } {
  const { opts } = ctx;
  const database = decodeURIComponent(new URL(opts.databaseUrl).pathname.replace(/^\//, ''));
  const sampler = new CpuSampler([
    ...defaultCpuGroups(ctx.stack, services, loadToolPid, database, toolLabel),
    ...extraGroups,
  ]);
  const edge = opts.duration >= 4 ? 1000 : 0;
  let cut: () => void = () => undefined;
  const ended = new Promise<void>((r) => (cut = r));
  let over = false;
  const wait = (ms: number) => Promise.race([sleep(ms), ended]);
  const done = (async (): Promise<CpuBreakdown | null> => {
    if (opts.duration < 2) return null;
    await wait(edge);
    if (over) return null;
    sampler.start();
    await wait(opts.duration * 1000 - 2 * edge - 200);
    const s = sampler.stop();
    const known = s.shares.reduce((a, g) => a + g.percentOfCore, 0);
    return {
      byGroup: [...s.shares, { label: 'other', percentOfCore: Math.max(0, s.machineBusyPercent * s.cores - known) }],
      machineBusyPercent: s.machineBusyPercent,
      stealPercent: s.stealPercent,
      cores: cpuCount(),
      wallSeconds: s.wallSeconds,
    };
  })();
  return {
    done,
    end: () => {
      over = true;
      cut();
    },
  };
}

export async function measureLoad(
  ctx: CaseContext,
  target: LoadTarget,
  services: ServiceName[],
): Promise<LoadMeasurement> {
  const { opts } = ctx;
  const slug = target.label.replace(/[^\w]+/g, '-').replace(/^-|-$/g, '');
  const base = {
    url: target.url,
    threads: opts.threads,
    connections: opts.connections,
    rotateHeader: target.rotateHeader,
    timeoutSeconds: target.timeoutSeconds,
    delayMs: target.delayMs,
  };
  const common = async () => ({
    ...base,
    rotateRequests: target.freshRequests ? await target.freshRequests() : target.rotateRequests,
  });

  if (opts.warmup > 0) {
    ctx.log(`${target.label}: warm-up ${opts.warmup} s`);
    const warm = await runWrk({
      ...(await common()),
      headers: await target.headers(),
      durationSeconds: opts.warmup,
      rawFile: path.join(opts.logDir, `wrk-${slug}-warmup.txt`),
    });
    // A warm-up that completed nothing (a loaded machine, a short warm-up) only warmed less; errors still fail.
    const problems = wrkProblems(warm).filter((p) => p !== 'no request completed');
    if (problems.length) throw new BenchError(`${target.label} (warm-up): ${problems.join('; ')}`);
  }
  ctx.checkAborted();
  ctx.stack.assertAlive();

  const loadBefore = loadAverage();
  ctx.log(
    `${target.label}: measuring ${opts.duration} s (${opts.threads} threads, ${opts.connections} connections; load average ${loadBefore.toFixed(2)})`,
  );
  const run = await common();
  let wrkPid: number | null = null;
  const window = cpuWindow(ctx, services, () => wrkPid, target.extraGroups);
  const wrk = await runWrk({
    ...run,
    headers: await target.headers(),
    durationSeconds: opts.duration,
    rawFile: path.join(opts.logDir, `wrk-${slug}.txt`),
    onSpawn: (pid) => (wrkPid = pid),
  });
  const cpu = await window.done;
  ctx.checkAborted();
  ctx.stack.assertAlive();
  const problems = wrkProblems(wrk);
  if (problems.length)
    throw new BenchError(
      `${target.label}: ${problems.join('; ')} — the numbers are not valid (raw output in ${opts.logDir})`,
    );
  return { label: target.label, wrk, cpu, loadBefore };
}

/**
 * CPU time each group spent per request (microseconds), from the sampled window and the run's
 * throughput; `other` is left out (it is not the bench's work). It moves less than req/s when
 * other work shares the machine, but contention still inflates it (fewer requests per wake-up,
 * cold caches): compare the medians of several runs, interleaved.
 */
export function cpuPerRequestUs(m: LoadMeasurement): Array<{ label: string; us: number }> | null {
  if (!m.cpu) return null;
  const requests = m.wrk.requestsPerSec * m.cpu.wallSeconds;
  if (requests <= 0) return null;
  return m.cpu.byGroup
    .filter((g) => g.label !== 'other')
    .map((g) => ({ label: g.label, us: ((g.percentOfCore / 100) * m.cpu!.wallSeconds * 1e6) / requests }));
}

/**
 * The throughput the measured path could reach if it had the machine's cores to itself:
 * cores / CPU seconds per request (every group but `other`). An upper bound that ignores
 * contention and latency; it shows how far from the target the code is, whatever else runs.
 */
export function cpuBoundCeiling(m: LoadMeasurement): number | null {
  const per = cpuPerRequestUs(m);
  if (!per || !m.cpu) return null;
  const total = per.reduce((a, g) => a + g.us, 0);
  return total > 0 ? (m.cpu.cores * 1e6) / total : null;
}

/** One line: each group's share of one core over the sampled window, and the machine's. */
export function cpuLine(m: LoadMeasurement): string {
  if (!m.cpu) return `${m.label}: CPU not sampled (run too short)`;
  const parts = m.cpu.byGroup
    .filter((g) => g.percentOfCore >= 0.5)
    .map((g) => `${g.label} ${fmt.pct(g.percentOfCore)}`);
  return `${m.label}: ${parts.join(', ')} of one core; machine ${fmt.pct(m.cpu.machineBusyPercent)} busy of ${m.cpu.cores} cores, steal ${fmt.pct(m.cpu.stealPercent)}`;
}
