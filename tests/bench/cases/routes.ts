/**
 * routes: every bodiless read of the route table (libs/contract ROUTES, GET without a body)
 * through the gateway at 50 connections, one wrk run per route, each request naming its own
 * token's account and resources (100 tokens over 20 accounts, round robin), at the services'
 * default log level. A bare node:http server in its own process answers the same run before and
 * after the routes; every route is measured against the slower of its two runs' mean. CPU per
 * request per process: gateway, the owning service, Postgres, Redis, NATS, wrk.
 */
import { cpuBoundCeiling, cpuPerRequestUs, measureLoad, type LoadMeasurement } from '../lib/load';
import { startBareServer } from '../lib/bare-server';
import { loadAverage } from '../lib/proc';
import { fmt } from '../lib/report';
import { bodilessReads, makeFixtures, rotatedRequests, routePath, type FixtureAccount } from '../lib/route-fixtures';
import { BenchError, type BenchCase, type CaseContext, type CaseReport, type ServiceName } from '../lib/types';

export const ROUTES_TARGET = { shareOfBare: 0.08, p99Ms: 30, connections: 50 };
export const ROUTE_SERVICES: ServiceName[] = ['account', 'recordings', 'series', 'ask', 'events', 'gateway'];
const SHAPE = { accounts: 20, tokensPerAccount: 5, meetingsPerAccount: 3, tag: 'routes' };
/** The services' own default (libs/http/src/config.ts): logging as deployed. */
const LOG_LEVEL = 'info';

/** Every fixture request answers 200 before the load (a 4xx would make wrk's numbers meaningless). */
async function checkAnswers(gateway: string, fixtures: FixtureAccount[]): Promise<string> {
  let sample = '';
  for (const route of bodilessReads()) {
    for (const f of fixtures) {
      const res = await fetch(`${gateway}${routePath(route, f)}`, { headers: { Authorization: `Bearer ${f.tokens[0].value}` }, signal: AbortSignal.timeout(10_000) });
      const text = await res.text();
      if (res.status !== 200) throw new BenchError(`${route.operationId} ${routePath(route, f)} answered ${res.status} before the load: ${text}`);
      if (route.operationId === 'whoami' && !sample) sample = text;
    }
  }
  return sample;
}

export const routesCase: BenchCase = {
  name: 'routes',
  description: 'every bodiless read of the route table through the gateway at 50 connections vs a bare node:http server (wrk)',
  implemented: true,
  services: ROUTE_SERVICES,
  env: { LOG_LEVEL },
  async run(ctx: CaseContext): Promise<CaseReport> {
    const gateway = ctx.stack.url('gateway');
    const loadAtStart = loadAverage();
    const fixtures = await makeFixtures(gateway, ctx.opts.databaseUrl, SHAPE);
    const tokens = fixtures.reduce((a, f) => a + f.tokens.length, 0);
    ctx.log(`${fixtures.length} accounts, ${tokens} tokens, ${SHAPE.meetingsPerAccount} meetings and a series each`);
    const body = await checkAnswers(gateway, fixtures);

    const bare = await startBareServer(body);
    const bareGroup = { label: 'bare', pids: () => [bare.pid] };
    const measured: Array<{ route: string; service: ServiceName; m: LoadMeasurement }> = [];
    const bareRuns: LoadMeasurement[] = [];
    try {
      const bareRun = async (when: string) =>
        bareRuns.push(await measureLoad(ctx, { label: `bare node:http (${when})`, url: `${bare.url}/`, headers: async () => ({}), extraGroups: [bareGroup] }, []));
      await bareRun('before');
      for (const route of bodilessReads()) {
        ctx.checkAborted();
        const service = route.service as ServiceName;
        const m = await measureLoad(
          ctx,
          { label: `${route.operationId} GET ${route.path}`, url: gateway, headers: async () => ({}), rotateRequests: rotatedRequests(route, fixtures) },
          ['gateway', service],
        );
        ctx.log(`${route.operationId}: ${fmt.int(m.wrk.requestsPerSec)} req/s, p99 ${fmt.ms(m.wrk.latencyMs.p99)} ms (load average ${m.loadBefore.toFixed(2)})`);
        measured.push({ route: route.operationId, service, m });
      }
      await bareRun('after');
    } finally {
      await bare.stop();
    }
    const loadAtEnd = loadAverage();
    const bareRps = Math.min(...bareRuns.map((b) => b.wrk.requestsPerSec));

    const cpuCells = (m: LoadMeasurement) => {
      const per = cpuPerRequestUs(m);
      const us = (label: string) => per?.find((g) => g.label === label)?.us;
      const cell = (v: number | undefined) => (v === undefined ? '?' : fmt.int(v));
      const owner = per?.find((g) => !['gateway', 'postgres', 'redis', 'nats', 'wrk', 'bare'].includes(g.label));
      const ceiling = cpuBoundCeiling(m);
      return [cell(us('gateway')), owner ? `${fmt.int(owner.us)} (${owner.label})` : '-', cell(us('postgres')), cell(us('redis')), cell(us('nats')), cell(us('wrk')), ceiling ? fmt.int(ceiling) : '?'];
    };
    const rows = measured.map(({ route, m }) => [
      route, fmt.int(m.wrk.requestsPerSec), fmt.ms(m.wrk.latencyMs.p50), fmt.ms(m.wrk.latencyMs.p99), fmt.ratio(m.wrk.requestsPerSec / bareRps), ...cpuCells(m), m.loadBefore.toFixed(1),
    ]);
    for (const b of bareRuns) rows.push([b.label, fmt.int(b.wrk.requestsPerSec), fmt.ms(b.wrk.latencyMs.p50), fmt.ms(b.wrk.latencyMs.p99), '', ...cpuCells(b).map(() => ''), b.loadBefore.toFixed(1)]);
    const { connections, threads } = ctx.opts;
    const indicative = connections === ROUTES_TARGET.connections ? '' : ` (measured at ${connections} connections: indicative only)`;
    const conditions = `log level ${ctx.opts.serviceEnv.LOG_LEVEL ?? LOG_LEVEL}, ${tokens} tokens over ${fixtures.length} accounts round robin, wrk ${threads} threads, ${connections} connections, ${ctx.opts.duration} s after ${ctx.opts.warmup} s warm-up; load average ${loadAtStart.toFixed(2)} before, ${loadAtEnd.toFixed(2)} after`;
    const targets = measured.map(({ route, m }) => {
      const share = m.wrk.requestsPerSec / bareRps;
      return {
        label: `${route} >= ${ROUTES_TARGET.shareOfBare}x bare and p99 < ${ROUTES_TARGET.p99Ms} ms at ${ROUTES_TARGET.connections} connections${indicative}`,
        pass: share >= ROUTES_TARGET.shareOfBare && m.wrk.latencyMs.p99 < ROUTES_TARGET.p99Ms,
        measured: `${fmt.ratio(share)} (${fmt.int(m.wrk.requestsPerSec)} of ${fmt.int(bareRps)} req/s), p99 ${fmt.ms(m.wrk.latencyMs.p99)} ms`,
      };
    });
    const slowest = [...measured].sort((a, b) => a.m.wrk.requestsPerSec - b.m.wrk.requestsPerSec)[0];
    return {
      tables: [
        {
          title: `routes — every bodiless read through the gateway, wrk ${threads} threads, ${connections} connections; CPU µs per request`,
          table: { headers: ['route', 'req/s', 'p50 ms', 'p99 ms', '/ bare', 'gateway µs', 'owner µs', 'postgres µs', 'redis µs', 'nats µs', 'wrk µs', 'req/s if alone', 'load'], rows },
        },
      ],
      lines: [`conditions: ${conditions}`, `bare node:http: ${bareRuns.map((b) => fmt.int(b.wrk.requestsPerSec)).join(' and ')} req/s (the lower is the reference)`],
      data: {
        conditions: { tokens, accounts: fixtures.length, connections, threads, loadAtStart, loadAtEnd, bareRps },
        routes: measured.map(({ route, service, m }) => ({ route, service, requestsPerSec: m.wrk.requestsPerSec, latencyMs: m.wrk.latencyMs, cpu: m.cpu, cpuPerRequestUs: cpuPerRequestUs(m), loadBefore: m.loadBefore })),
      },
      targets,
      summary: `${measured.length} routes; slowest ${slowest?.route} ${fmt.int(slowest?.m.wrk.requestsPerSec ?? 0)} req/s; bare ${fmt.int(bareRps)} req/s; ${conditions}`,
    };
  },
};
