/**
 * routes: every bodiless read of the route table (libs/contract ROUTES, GET without a body)
 * through the gateway at 50 connections, one wrk run per route, each request naming its own
 * token's account and resources (100 tokens over 20 accounts, round robin), at the services'
 * default log level. A bare node:http server in its own process answers the same run before and
 * after the reads (before the calls with a body, whose work outlasts their runs); every route is
 * measured against the slower of its two runs' mean. CPU per
 * request per process: gateway, the owning service, Postgres, Redis, NATS, wrk.
 * Then the agent loop's calls with a body (submit, naming skip, Ask on a meeting and a series),
 * their engines stubbed behind the same bus (no pipeline; Ask's extractive engine), reported
 * beside the reads without a target (the targets are the bodiless reads').
 */
import { cpuBoundCeiling, cpuPerRequestUs, measureLoad, type LoadMeasurement } from '../lib/load';
import { startBareServer } from '../lib/bare-server';
import { measureEachOnce } from '../lib/each-once';
import { loadAverage } from '../lib/proc';
import { codeOf } from '../lib/stack';
import { fmt } from '../lib/report';
import {
  BODIED_CALLS,
  bodiedRequests,
  bodilessReads,
  namingSkipRequests,
  prepareFixtures,
  rotatedRequests,
  routePath,
  type FixtureAccount,
} from '../lib/route-fixtures';
import { BenchError, type BenchCase, type CaseContext, type CaseReport, type ServiceName } from '../lib/types';
import type { RotatedRequest } from '../lib/wrk';
import { findRoute } from '@mm/contract';

export const ROUTES_TARGET = { shareOfBare: 0.08, p99Ms: 30, connections: 50 };
export const ROUTE_SERVICES: ServiceName[] = ['account', 'recordings', 'series', 'ask', 'events', 'gateway'];
/**
 * The processes sampled for a route: the gateway, the owner, then every other service, so a read
 * that crosses more (a quote: ask, then recordings and series over the bus) is charged in full,
 * in its own column and in the ceiling, instead of falling into the machine's `other`.
 */
const sampledServices = (owner: ServiceName): ServiceName[] => [
  'gateway',
  owner,
  ...ROUTE_SERVICES.filter((s) => s !== 'gateway' && s !== owner),
];
/** A service behind the owner is named in its cell from this many µs per request (an idle one spends ~1). */
const BEHIND_NAMED_US = 5;
const SHAPE = { accounts: 20, tokensPerAccount: 5, meetingsPerAccount: 3, tag: 'routes' };
/** The services' own default (libs/http/src/config.ts): logging as deployed. */
export const LOG_LEVEL = 'info';
/**
 * The service's own daily limits per account (account service: 100 meetings, 200 Asks by default)
 * raised as RATE_LIMIT_SCALE raises the rate budgets: 50 connections reach 200 Asks per account in
 * seconds, after which every Ask is a 429 DAILY_LIMIT_REACHED that measures nothing.
 */
export const BENCH_DAILY_LIMIT = '100000000';
/**
 * Every case built on the route fixtures: logging as deployed, submitted audio in the case's scratch
 * directory, the daily limits out of the way.
 */
export const routeCaseEnv = (scratch: string) => ({
  LOG_LEVEL,
  AUDIO_STORE: `file:${scratch}/store`,
  DAILY_ASK_LIMIT: BENCH_DAILY_LIMIT,
  DAILY_MEETING_LIMIT: BENCH_DAILY_LIMIT,
});
/** Naming skips a second this machine is assumed never to exceed: how many NAMING meetings are made. */
const SKIPS_PER_SECOND_CEILING = 800;
const SKIP_WARMUP = 300;
/** A submit runs ffprobe on its audio: 50 at once on a loaded 2-core machine take seconds each. */
const BODIED_TIMEOUT_S = 60;
const SUBMIT_MIN_SECONDS = 20;

/** The operations `--routes` names (every one without it); an unknown name is a usage error. */
export function selectedOps<T extends string>(ctx: CaseContext, ops: readonly T[], all: readonly string[]): T[] {
  const named = ctx.opts.routes;
  if (!named) return [...ops];
  const unknown = named.filter((n) => !all.includes(n));
  if (unknown.length)
    throw new BenchError(`--routes: no such operation ${unknown.join(', ')} (one of ${all.join(', ')})`);
  return ops.filter((op) => named.includes(op));
}

/** The bodiless reads the run measures (`--routes`). */
function readsOf(ctx: CaseContext): ReturnType<typeof bodilessReads> {
  const reads = bodilessReads();
  const all = [...reads.map((r) => r.operationId), ...BODIED_CALLS];
  const ops = selectedOps(
    ctx,
    reads.map((r) => r.operationId),
    all,
  );
  return reads.filter((r) => ops.includes(r.operationId));
}

/**
 * Every fixture request answers 200 before the load (a 4xx would make wrk's numbers meaningless).
 * Returns a whoami answer: the bare server's body (the same bytes whichever routes are measured).
 */
async function checkAnswers(
  gateway: string,
  fixtures: FixtureAccount[],
  reads: ReturnType<typeof bodilessReads>,
): Promise<string> {
  let sample = '';
  const whoami = bodilessReads().find((r) => r.operationId === 'whoami')!;
  for (const route of reads.includes(whoami) ? reads : [whoami, ...reads]) {
    for (const f of fixtures) {
      const res = await fetch(`${gateway}${routePath(route, f)}`, {
        headers: { Authorization: `Bearer ${f.tokens[0].value}` },
        signal: AbortSignal.timeout(10_000),
      });
      const text = await res.text();
      if (res.status !== 200)
        throw new BenchError(
          `${route.operationId} ${routePath(route, f)} answered ${res.status} before the load: ${text}`,
        );
      if (route.operationId === 'whoami' && !sample) sample = text;
    }
  }
  return sample;
}

/** A call with a body answers 2xx before its load (submit 202, Ask 200). */
async function checkBodied(origin: string, r: RotatedRequest): Promise<void> {
  const res = await fetch(`${origin}${r.path}`, {
    method: r.method,
    headers: r.headers,
    body: r.body ? new Uint8Array(r.body) : undefined,
    signal: AbortSignal.timeout(30_000),
  });
  const text = await res.text();
  if (res.status >= 300) throw new BenchError(`${r.method} ${r.path} answered ${res.status} before the load: ${text}`);
}

export const routesCase: BenchCase = {
  name: 'routes',
  description:
    'every bodiless read of the route table through the gateway at 50 connections vs a bare node:http server (wrk)',
  implemented: true,
  services: ROUTE_SERVICES,
  compiledByDefault: true,
  env: routeCaseEnv,
  async run(ctx: CaseContext): Promise<CaseReport> {
    const { gateway, loadAtStart, fixtures, tokens } = await prepareFixtures(ctx, SHAPE);
    const reads = readsOf(ctx);
    const bodied = selectedOps(ctx, BODIED_CALLS, [...bodilessReads().map((r) => r.operationId), ...BODIED_CALLS]);
    const body = await checkAnswers(gateway, fixtures, reads);

    const bare = await startBareServer(body);
    const bareGroup = { label: 'bare', pids: () => [bare.pid] };
    const measured: Array<{ route: string; service: ServiceName; m: LoadMeasurement }> = [];
    const writes: typeof measured = [];
    const bareRuns: LoadMeasurement[] = [];
    try {
      const bareRun = async (when: string) =>
        bareRuns.push(
          await measureLoad(
            ctx,
            {
              label: `bare node:http (${when})`,
              url: `${bare.url}/`,
              headers: async () => ({}),
              extraGroups: [bareGroup],
            },
            [],
          ),
        );
      await bareRun('before');
      for (const route of reads) {
        ctx.checkAborted();
        const service = route.service as ServiceName;
        const m = await measureLoad(
          ctx,
          {
            label: `${route.operationId} GET ${route.path}`,
            url: gateway,
            headers: async () => ({}),
            rotateRequests: rotatedRequests(route, fixtures),
          },
          sampledServices(service),
        );
        ctx.log(
          `${route.operationId}: ${fmt.int(m.wrk.requestsPerSec)} req/s, p99 ${fmt.ms(m.wrk.latencyMs.p99)} ms (load average ${m.loadBefore.toFixed(2)})`,
        );
        measured.push({ route: route.operationId, service, m });
      }
      // Right after the reads, before the calls with a body: a submit leaves the pipeline working
      // for seconds after its run, and a bare server measured then would be slowed by it (a lower
      // reference that flatters every read's ratio).
      await bareRun('after');
      for (const op of bodied) {
        ctx.checkAborted();
        const route = findRoute(op)!;
        const service = route.service as ServiceName;
        const label = `${op} ${route.method.toUpperCase()} ${route.path}`;
        let m: LoadMeasurement;
        if (op === 'skipRecordingNaming') {
          const perAccount = Math.ceil(
            ((ctx.opts.duration + 1) * SKIPS_PER_SECOND_CEILING + SKIP_WARMUP) / fixtures.length,
          );
          const requests = await namingSkipRequests(ctx.opts.databaseUrl, fixtures, perAccount, 'skip');
          m = await measureEachOnce(
            ctx,
            { label, origin: gateway, requests, warmupRequests: SKIP_WARMUP },
            sampledServices(service),
          );
        } else {
          const requests = bodiedRequests(op, fixtures);
          await checkBodied(gateway, requests[0]);
          // A submit (upload, ffprobe, hold) takes seconds at 50 at once on a loaded machine: no
          // warm-up (its uploads would still run into the measured window), and at least 20 s.
          const submitOpts =
            op === 'submitRecording'
              ? { ...ctx.opts, warmup: 0, duration: Math.max(ctx.opts.duration, SUBMIT_MIN_SECONDS) }
              : ctx.opts;
          m = await measureLoad(
            { ...ctx, opts: submitOpts },
            {
              label,
              url: gateway,
              headers: async () => ({}),
              rotateRequests: requests,
              timeoutSeconds: BODIED_TIMEOUT_S,
            },
            sampledServices(service),
          );
        }
        ctx.log(
          `${op}: ${fmt.int(m.wrk.requestsPerSec)} req/s, p99 ${fmt.ms(m.wrk.latencyMs.p99)} ms (load average ${m.loadBefore.toFixed(2)})`,
        );
        writes.push({ route: op, service, m });
      }
    } finally {
      await bare.stop();
    }
    const loadAtEnd = loadAverage();
    const bareRps = Math.min(...bareRuns.map((b) => b.wrk.requestsPerSec));

    const cpuCells = (m: LoadMeasurement, service: ServiceName) => {
      const per = cpuPerRequestUs(m);
      const us = (label: string) => per?.find((g) => g.label === label)?.us;
      const cell = (v: number | undefined) => (v === undefined ? '?' : fmt.int(v));
      const ceiling = cpuBoundCeiling(m);
      const owner = us(service);
      // The services behind the owner (a quote's recordings and series, over the bus), largest first.
      const behind = (per ?? [])
        .filter((g) => (ROUTE_SERVICES as string[]).includes(g.label) && g.label !== 'gateway' && g.label !== service)
        .sort((a, b) => b.us - a.us);
      const behindUs = behind.reduce((a, g) => a + g.us, 0);
      const named = behind.filter((g) => g.us >= BEHIND_NAMED_US).map((g) => `${g.label} ${fmt.int(g.us)}`);
      return [
        cell(us('gateway')),
        owner === undefined ? '-' : `${fmt.int(owner)} (${service})`,
        per ? `${fmt.int(behindUs)}${named.length > 0 ? ` (${named.join(', ')})` : ''}` : '?',
        cell(us('postgres')),
        cell(us('redis')),
        cell(us('nats')),
        cell(us('wrk') ?? us('client')),
        ceiling ? fmt.int(ceiling) : '?',
      ];
    };
    const rows = measured.map(({ route, service, m }) => [
      route,
      fmt.int(m.wrk.requestsPerSec),
      fmt.ms(m.wrk.latencyMs.p50),
      fmt.ms(m.wrk.latencyMs.p99),
      fmt.ratio(m.wrk.requestsPerSec / bareRps),
      ...cpuCells(m, service),
      m.loadBefore.toFixed(1),
    ]);
    for (const { route, service, m } of writes) {
      rows.push([
        `${route} (no target)`,
        fmt.int(m.wrk.requestsPerSec),
        fmt.ms(m.wrk.latencyMs.p50),
        fmt.ms(m.wrk.latencyMs.p99),
        fmt.ratio(m.wrk.requestsPerSec / bareRps),
        ...cpuCells(m, service),
        m.loadBefore.toFixed(1),
      ]);
    }
    for (const b of bareRuns)
      rows.push([
        b.label,
        fmt.int(b.wrk.requestsPerSec),
        fmt.ms(b.wrk.latencyMs.p50),
        fmt.ms(b.wrk.latencyMs.p99),
        '',
        ...cpuCells(b, 'gateway').map(() => ''),
        b.loadBefore.toFixed(1),
      ]);
    const { connections, threads } = ctx.opts;
    const indicative =
      connections === ROUTES_TARGET.connections ? '' : ` (measured at ${connections} connections: indicative only)`;
    const conditions = `${codeOf(ctx.opts)}, log level ${ctx.opts.serviceEnv.LOG_LEVEL ?? LOG_LEVEL}, ${tokens} tokens over ${fixtures.length} accounts round robin, wrk ${threads} threads, ${connections} connections, ${ctx.opts.duration} s after ${ctx.opts.warmup} s warm-up; load average ${loadAtStart.toFixed(2)} before, ${loadAtEnd.toFixed(2)} after`;
    const targets = measured.map(({ route, m }) => {
      const share = m.wrk.requestsPerSec / bareRps;
      return {
        label: `${route} >= ${ROUTES_TARGET.shareOfBare}x bare and p99 < ${ROUTES_TARGET.p99Ms} ms at ${ROUTES_TARGET.connections} connections${indicative}`,
        pass: share >= ROUTES_TARGET.shareOfBare && m.wrk.latencyMs.p99 < ROUTES_TARGET.p99Ms,
        // Three decimals: 0.076x is a FAIL that two would print as 0.08x.
        measured: `${share.toFixed(3)}x (${fmt.int(m.wrk.requestsPerSec)} of ${fmt.int(bareRps)} req/s), p99 ${fmt.ms(m.wrk.latencyMs.p99)} ms`,
      };
    });
    const slowest = [...measured].sort((a, b) => a.m.wrk.requestsPerSec - b.m.wrk.requestsPerSec)[0];
    return {
      tables: [
        {
          title: `routes — every bodiless read through the gateway, wrk ${threads} threads, ${connections} connections; CPU µs per request`,
          table: {
            headers: [
              'route',
              'req/s',
              'p50 ms',
              'p99 ms',
              '/ bare',
              'gateway µs',
              'owner µs',
              'services behind µs',
              'postgres µs',
              'redis µs',
              'nats µs',
              'load tool µs',
              'req/s if alone',
              'load',
            ],
            rows,
          },
        },
      ],
      lines: [
        `conditions: ${conditions}`,
        `bare node:http: ${bareRuns.map((b) => fmt.int(b.wrk.requestsPerSec)).join(' and ')} req/s (the lower is the reference)`,
        `calls with a body (no target): submit is a 1-second WAV, naming=skip (ffprobe runs per submit; no pipeline takes the job), measured ${Math.max(ctx.opts.duration, SUBMIT_MIN_SECONDS)} s without warm-up; naming skip sends each of ${fmt.int(writes.find((w) => w.route === 'skipRecordingNaming')?.m.wrk.requests ?? 0)} NAMING meetings once from the bench's own client (load tool: client); Ask uses the extractive engine`,
      ],
      data: {
        conditions: { tokens, accounts: fixtures.length, connections, threads, loadAtStart, loadAtEnd, bareRps },
        routes: [...measured, ...writes].map(({ route, service, m }) => ({
          route,
          service,
          requestsPerSec: m.wrk.requestsPerSec,
          latencyMs: m.wrk.latencyMs,
          cpu: m.cpu,
          cpuPerRequestUs: cpuPerRequestUs(m),
          loadBefore: m.loadBefore,
        })),
      },
      targets,
      summary: `${measured.length} routes; slowest ${slowest?.route} ${fmt.int(slowest?.m.wrk.requestsPerSec ?? 0)} req/s; bare ${fmt.int(bareRps)} req/s; ${conditions}`,
    };
  },
};
