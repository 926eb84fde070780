/**
 * mixed: many agents at once, each a token following the contract's agent loop at its rate
 * budgets (RATE_CLASSES: the read budget spread over status polls, feed follows from a real
 * cursor, list pages and bundle reads; the search budget on searches), tokens spread over
 * accounts. wrk is a closed loop, so the case steps the connections up and keeps the highest
 * throughput whose p99 stays under 100 ms; agents = that throughput / one agent's request rate.
 * The gateway's share is its CPU per request over the whole stack's (every process sampled).
 * Reads only: submits and Asks (engines stubbed) are not part of this mix yet.
 */
import { findRoute, RATE_CLASSES, type RouteDef } from '@mm/contract';
import { cpuPerRequestUs, measureLoad, type LoadMeasurement } from '../lib/load';
import { cpuCount, loadAverage } from '../lib/proc';
import { fmt } from '../lib/report';
import { API_ROOT, makeFixtures, routePath, type FixtureAccount } from '../lib/route-fixtures';
import { BenchError, type BenchCase, type CaseContext, type CaseReport } from '../lib/types';
import type { RotatedRequest } from '../lib/wrk';
import { ROUTE_SERVICES } from './routes';

export const MIXED_TARGET = { p99Ms: 100, gatewayShare: 0.3 };
const SHAPE = { accounts: 20, tokensPerAccount: 5, meetingsPerAccount: 3, tag: 'mixed' };
const CONNECTION_STEPS = [8, 16, 32, 64];
const LOG_LEVEL = 'info';

/** The agent loop's reads (contract: "The agent loop"), by operationId, with their share of their class's budget. */
const LOOP: Array<{ op: string; weight: number }> = [
  { op: 'getRecordingStatus', weight: 3 },
  { op: 'listEvents', weight: 2 },
  { op: 'listReadyRecordings', weight: 2 },
  { op: 'getRecordingBundle', weight: 3 },
  { op: 'searchRecordings', weight: 1 },
];

function loopRoutes(): Array<{ route: RouteDef; perSecond: number }> {
  const routes = LOOP.map((l) => {
    const route = findRoute(l.op);
    if (!route) throw new BenchError(`the route table has no ${l.op}`);
    return { route, weight: l.weight };
  });
  // Each rate class's budget is spread over the loop's routes of that class by weight.
  return routes.map(({ route, weight }) => {
    const cls = RATE_CLASSES[route.rateClass];
    const classWeight = routes.filter((r) => r.route.rateClass === route.rateClass).reduce((a, r) => a + r.weight, 0);
    return { route, perSecond: (cls.requests / cls.windowSeconds) * (weight / classWeight) };
  });
}

/** Each token's feed cursor from `after=latest`, so the follows read on from a real cursor. */
async function feedCursors(gateway: string, fixtures: FixtureAccount[]): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  for (const f of fixtures) {
    for (const t of f.tokens) {
      const res = await fetch(`${gateway}${API_ROOT}/events?after=latest`, { headers: { Authorization: `Bearer ${t.value}` }, signal: AbortSignal.timeout(10_000) });
      const body = (await res.json()) as { nextCursor?: string };
      if (res.status !== 200 || !body.nextCursor) throw new BenchError(`GET /events?after=latest answered ${res.status} without a cursor`);
      out.set(t.id, body.nextCursor);
    }
  }
  return out;
}

/** The mix as pre-built requests: every token's loop, each route repeated by its rate (in 1/10 s units). */
function mixRequests(fixtures: FixtureAccount[], cursors: Map<string, string>): RotatedRequest[] {
  const loop = loopRoutes();
  const out: RotatedRequest[] = [];
  for (const f of fixtures) {
    f.tokens.forEach((t, i) => {
      const headers = { Authorization: `Bearer ${t.value}` };
      for (const { route, perSecond } of loop) {
        const path = route.operationId === 'listEvents' ? `${API_ROOT}/events?after=${encodeURIComponent(cursors.get(t.id)!)}` : routePath(route, f, i);
        for (let k = 0; k < Math.round(perSecond * 10); k++) out.push({ path, headers });
      }
    });
  }
  // Interleave (a fixed shuffle) so consecutive requests mix routes and tokens.
  let seed = 7;
  for (let i = out.length - 1; i > 0; i--) {
    seed = (seed * 1103515245 + 12345) % 2 ** 31;
    const j = seed % (i + 1);
    [out[i], out[j]] = [out[j], out[i]];
  }
  return out;
}

export const mixedCase: BenchCase = {
  name: 'mixed',
  description: "many agents following the contract's agent loop at their rate budgets (reads), agents per core at p99 < 100 ms, gateway's CPU share",
  implemented: true,
  services: ROUTE_SERVICES,
  env: { LOG_LEVEL },
  async run(ctx: CaseContext): Promise<CaseReport> {
    const gateway = ctx.stack.url('gateway');
    const loadAtStart = loadAverage();
    const fixtures = await makeFixtures(gateway, ctx.opts.databaseUrl, SHAPE);
    const requests = mixRequests(fixtures, await feedCursors(gateway, fixtures));
    const agentRate = loopRoutes().reduce((a, r) => a + r.perSecond, 0);
    const steps: Array<{ connections: number; m: LoadMeasurement }> = [];
    for (const connections of CONNECTION_STEPS) {
      ctx.checkAborted();
      const stepCtx: CaseContext = { ...ctx, opts: { ...ctx.opts, connections: Math.max(connections, ctx.opts.threads) } };
      const m = await measureLoad(stepCtx, { label: `mixed at ${connections} connections`, url: gateway, headers: async () => ({}), rotateRequests: requests }, ROUTE_SERVICES);
      ctx.log(`${connections} connections: ${fmt.int(m.wrk.requestsPerSec)} req/s, p99 ${fmt.ms(m.wrk.latencyMs.p99)} ms (load average ${m.loadBefore.toFixed(2)})`);
      steps.push({ connections, m });
      if (m.wrk.latencyMs.p99 >= MIXED_TARGET.p99Ms) break;
    }
    const cores = cpuCount();
    const share = (m: LoadMeasurement) => {
      const per = cpuPerRequestUs(m);
      if (!per) return null;
      const total = per.reduce((a, g) => a + g.us, 0);
      return { gateway: (per.find((g) => g.label === 'gateway')?.us ?? 0) / total, total };
    };
    const within = steps.filter((s) => s.m.wrk.latencyMs.p99 < MIXED_TARGET.p99Ms);
    const best = within.sort((a, b) => b.m.wrk.requestsPerSec - a.m.wrk.requestsPerSec)[0] ?? null;
    const agents = best ? best.m.wrk.requestsPerSec / agentRate : 0;
    const bestShare = best ? share(best.m) : share(steps[steps.length - 1].m);
    const loadAtEnd = loadAverage();
    const conditions = `${fixtures.length} accounts, ${fixtures.length * SHAPE.tokensPerAccount} agents' tokens, one agent = ${agentRate.toFixed(2)} req/s (its read and search budgets), log level ${ctx.opts.serviceEnv.LOG_LEVEL ?? LOG_LEVEL}, ${cores} cores; load average ${loadAtStart.toFixed(2)} before, ${loadAtEnd.toFixed(2)} after`;
    return {
      tables: [
        {
          title: 'mixed — the agent loop through the gateway (reads), wrk closed loop stepped up by connections',
          table: {
            headers: ['connections', 'req/s', 'p50 ms', 'p99 ms', 'agents', 'CPU µs/request', 'gateway share', 'load'],
            rows: steps.map(({ connections, m }) => {
              const s = share(m);
              return [String(connections), fmt.int(m.wrk.requestsPerSec), fmt.ms(m.wrk.latencyMs.p50), fmt.ms(m.wrk.latencyMs.p99), fmt.int(m.wrk.requestsPerSec / agentRate), s ? fmt.int(s.total) : '?', s ? fmt.pct(s.gateway * 100) : '?', m.loadBefore.toFixed(1)];
            }),
          },
        },
      ],
      lines: [
        `conditions: ${conditions}`,
        `mix per agent: ${loopRoutes().map((r) => `${r.route.operationId} ${r.perSecond.toFixed(3)}/s`).join(', ')}`,
        `agents at p99 < ${MIXED_TARGET.p99Ms} ms: ${fmt.int(agents)} (${fmt.int(agents / cores)} per core)`,
        'not measured yet: submits and Asks with stubbed engines, and the same mix sent straight to the services (the gateway share is its sampled CPU over every process of the run)',
      ],
      data: { conditions: { loadAtStart, loadAtEnd, cores, agentRate }, steps: steps.map(({ connections, m }) => ({ connections, wrk: m.wrk.latencyMs, rps: m.wrk.requestsPerSec, cpu: m.cpu, share: share(m) })), agents },
      targets: [
        {
          label: `gateway's share of CPU per request <= ${MIXED_TARGET.gatewayShare * 100}% (mixed workload)`,
          pass: !!bestShare && bestShare.gateway <= MIXED_TARGET.gatewayShare,
          measured: bestShare ? `${fmt.pct(bestShare.gateway * 100)} of ${fmt.int(bestShare.total)} µs per request` : 'not sampled',
        },
      ],
      summary: `${fmt.int(agents)} agents (${fmt.int(agents / cores)} per core) at p99 < ${MIXED_TARGET.p99Ms} ms; gateway share ${bestShare ? fmt.pct(bestShare.gateway * 100) : '?'}; ${conditions}`,
    };
  },
};
