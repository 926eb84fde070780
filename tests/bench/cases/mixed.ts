/**
 * mixed: many agents at once, each a token following the contract's agent loop at its rate
 * budgets (RATE_CLASSES: the read budget spread over status polls, feed follows from a real
 * cursor, list pages and bundle reads; the search budget on searches; the submit and ask budgets
 * on submits and Asks, their engines stubbed behind the same bus), tokens spread over accounts.
 * The reads and searches run in wrk's closed loop, so the case steps the connections up and keeps
 * the highest throughput whose p99 stays under 100 ms; agents = that throughput / one agent's
 * read and search rate. Submits and Asks go beside them open loop (lib/each-once.ts OpenLoop), a
 * tenth of their budgets, for the agents the previous step reached (a probe before the first): in a
 * closed loop each submit (upload, ffprobe, hold) would hold a connection and stall the reads.
 *
 * The gateway's share is measured on the reads: the same reads sent straight to the services
 * (each with the principal the gateway would have signed), one run per owning service with its
 * part (wrk reaches one origin per run), against the reads alone through the gateway at the
 * compared step: share = 1 - straight / through the gateway, stack CPU per request (the load tool
 * left out). The straight runs are made twice: at the step's connections split by the parts'
 * shares (each part then runs faster than through the gateway, and CPU per request falls as load
 * rises), and paced to the rate each part had through the gateway (wrk's delay()), the same work
 * at the same load. The target is judged on the larger of the same-rate figure and the share the
 * gateway's processes and Redis have of the stack's sampled CPU in the run through the gateway
 * (see the comment at the comparison); all three are printed.
 */
import { findRoute, RATE_CLASSES, type RouteDef } from '@mm/contract';
import { PRINCIPAL_HEADER, principalKey, signPrincipal } from '@mm/http';
import { principalFor } from '../lib/admin';
import { OpenLoop } from '../lib/each-once';
import { cpuPerRequestUs, measureLoad, type LoadMeasurement } from '../lib/load';
import { cpuCount, loadAverage } from '../lib/proc';
import { fmt } from '../lib/report';
import { API_ROOT, bodiedRequests, prepareFixtures, routePath, type FixtureAccount } from '../lib/route-fixtures';
import { BENCH_INTERNAL_SECRET, codeOf } from '../lib/stack';
import { BenchError, type BenchCase, type CaseContext, type CaseReport, type ServiceName } from '../lib/types';
import { runWrk, type RotatedRequest } from '../lib/wrk';
import { LOG_LEVEL, ROUTE_SERVICES, routeCaseEnv } from './routes';

export const MIXED_TARGET = { p99Ms: 100, gatewayShare: 0.3 };
const SHAPE = { accounts: 20, tokensPerAccount: 5, meetingsPerAccount: 3, tag: 'mixed' };
const CONNECTION_STEPS = [8, 16, 32, 64];
/** The reads are built in these units of a second: the smallest rate (a search, 0.2/s) is two requests. */
const UNITS_PER_SECOND = 10;
const LOAD_TOOLS = ['wrk', 'client'];
/** A paced straight run's cycle per connection (latency + delay), in ms. */
const PACED_CYCLE_MS = 50;
/** How far a paced run's rate may be from its target before it is run again with a corrected delay. */
const PACED_TOLERANCE = 0.05;

/** The agent loop (contract: "The agent loop"), by operationId, with its share of its class's budget. */
const LOOP: Array<{ op: string; weight: number }> = [
  { op: 'getRecordingStatus', weight: 3 },
  { op: 'listEvents', weight: 2 },
  { op: 'listReadyRecordings', weight: 2 },
  { op: 'getRecordingBundle', weight: 3 },
  { op: 'searchRecordings', weight: 1 },
];
/** Sent open loop beside the reads: "a few" submits and Asks, each at this share of its class's budget. */
const WRITES = ['askRecording', 'submitRecording'] as const;
/**
 * A tenth (3 of each per 10 minutes): at their whole budgets (30 each) an agent's submits alone
 * cost ~50x its reads (a submit uploads, runs ffprobe and holds minutes), and the mix would
 * measure the submit path only.
 */
const WRITE_SHARE_OF_BUDGET = 0.1;

function writeRateOf(op: (typeof WRITES)[number]): number {
  const cls = RATE_CLASSES[findRoute(op)!.rateClass];
  return (cls.requests / cls.windowSeconds) * WRITE_SHARE_OF_BUDGET;
}

function writeRate(): number {
  return WRITES.reduce((a, op) => a + writeRateOf(op), 0);
}

/** Every token's submit and Ask through the gateway, interleaved. */
function writeRequests(fixtures: FixtureAccount[]): RotatedRequest[] {
  const [asks, submits] = WRITES.map((op) => bodiedRequests(op, fixtures));
  return asks.flatMap((a, i) => [a, submits[i]]);
}

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
      const res = await fetch(`${gateway}${API_ROOT}/events?after=latest`, {
        headers: { Authorization: `Bearer ${t.value}` },
        signal: AbortSignal.timeout(10_000),
      });
      const body = (await res.json()) as { nextCursor?: string };
      if (res.status !== 200 || !body.nextCursor)
        throw new BenchError(`GET /events?after=latest answered ${res.status} without a cursor`);
      out.set(t.id, body.nextCursor);
    }
  }
  return out;
}

interface MixRequest extends RotatedRequest {
  service: ServiceName;
  /** Index of the token in `fixtures.flatMap(f => f.tokens)`. */
  agent: number;
}

/**
 * The mix as pre-built requests through the gateway: every token's loop, each route repeated by
 * its rate (in 1/UNITS_PER_SECOND s), shuffled once (a fixed seed) so consecutive requests mix
 * routes and tokens.
 */
function mixRequests(fixtures: FixtureAccount[], cursors: Map<string, string>): MixRequest[] {
  const loop = loopRoutes();
  const out: MixRequest[] = [];
  let agent = 0;
  for (const f of fixtures) {
    f.tokens.forEach((t, i) => {
      const headers = { Authorization: `Bearer ${t.value}` };
      for (const { route, perSecond } of loop) {
        const request: RotatedRequest = {
          path:
            route.operationId === 'listEvents'
              ? `${API_ROOT}/events?after=${encodeURIComponent(cursors.get(t.id)!)}`
              : routePath(route, f, i),
          headers,
        };
        for (let k = 0; k < Math.round(perSecond * UNITS_PER_SECOND); k++)
          out.push({ ...request, service: route.service as ServiceName, agent });
      }
      agent++;
    });
  }
  let seed = 7;
  for (let i = out.length - 1; i > 0; i--) {
    seed = (seed * 1103515245 + 12345) % 2 ** 31;
    const j = seed % (i + 1);
    [out[i], out[j]] = [out[j], out[i]];
  }
  return out;
}

/** The same requests straight to their service: no /api/v1, the principal instead of the token. */
function directRequests(mix: MixRequest[], principals: string[]): RotatedRequest[] {
  return mix.map((r) => {
    const { Authorization: _token, ...rest } = r.headers;
    return {
      path: r.path.slice(API_ROOT.length),
      headers: { ...rest, [PRINCIPAL_HEADER]: principals[r.agent] },
      method: r.method,
      body: r.body,
    };
  });
}

/**
 * Stack CPU per request (µs): every sampled group but the load tool's; `besides` requests a second
 * sent by another client in the same window. `gatewaySide` is the gateway's processes and Redis,
 * which only the gateway uses.
 */
function stackUs(m: LoadMeasurement, besides = 0): { total: number; gateway: number; gatewaySide: number } | null {
  const per = cpuPerRequestUs(m)?.filter((g) => !LOAD_TOOLS.includes(g.label));
  if (!per) return null;
  const scale = m.wrk.requestsPerSec / (m.wrk.requestsPerSec + besides);
  const of = (label: string) => (per.find((g) => g.label === label)?.us ?? 0) * scale;
  return {
    total: per.reduce((a, g) => a + g.us, 0) * scale,
    gateway: of('gateway'),
    gatewaySide: of('gateway') + of('redis'),
  };
}

export const mixedCase: BenchCase = {
  name: 'mixed',
  description:
    "many agents following the contract's agent loop at their rate budgets, agents per core at p99 < 100 ms, the gateway's CPU share measured against the mix sent straight to the services",
  implemented: true,
  services: ROUTE_SERVICES,
  compiledByDefault: true,
  env: routeCaseEnv,
  async run(ctx: CaseContext): Promise<CaseReport> {
    const { gateway, loadAtStart, fixtures } = await prepareFixtures(ctx, SHAPE);
    // Each run follows the feed from where it stands when the run starts: an agent that follows
    // moves its cursor on, so a read returns what came since (the writes of that run), not every
    // event since the bench began (a page of 100 by the later runs, which no follower reads twice).
    const freshMix = async () => mixRequests(fixtures, await feedCursors(gateway, fixtures));
    const mix = await freshMix();
    const readRate = loopRoutes().reduce((a, r) => a + r.perSecond, 0);
    const agentRate = readRate + writeRate();
    const writes = writeRequests(fixtures);
    // The first step's writes: the agents a short reads-only probe at its connections reaches.
    const probe = await runWrk({
      url: gateway,
      threads: ctx.opts.threads,
      connections: CONNECTION_STEPS[0],
      durationSeconds: 3,
      rotateRequests: mix,
    });
    let agentsBefore = probe.requestsPerSec / readRate;
    const steps: Array<{
      connections: number;
      m: LoadMeasurement;
      w: { sent: number; perSecond: number; p50: number; p99: number };
    }> = [];
    for (const connections of CONNECTION_STEPS) {
      ctx.checkAborted();
      const stepCtx: CaseContext = {
        ...ctx,
        opts: { ...ctx.opts, connections: Math.max(connections, ctx.opts.threads) },
      };
      const side = new OpenLoop(new URL(gateway), writes, agentsBefore * writeRate());
      side.start();
      const m = await measureLoad(
        stepCtx,
        {
          label: `mixed at ${connections} connections`,
          url: gateway,
          headers: async () => ({}),
          freshRequests: freshMix,
        },
        ROUTE_SERVICES,
      ).catch(async (err: unknown) => {
        await side.stop('writes').catch(() => undefined);
        throw err;
      });
      const w = await side.stop(`submits and Asks beside ${connections} connections`);
      ctx.log(
        `${connections} connections: ${fmt.int(m.wrk.requestsPerSec)} reads/s, p99 ${fmt.ms(m.wrk.latencyMs.p99)} ms; ${w.perSecond.toFixed(1)} writes/s, p99 ${fmt.ms(w.p99)} ms (load average ${m.loadBefore.toFixed(2)})`,
      );
      steps.push({ connections, m, w });
      agentsBefore = m.wrk.requestsPerSec / readRate;
      if (m.wrk.latencyMs.p99 >= MIXED_TARGET.p99Ms) break;
    }
    const cores = cpuCount();
    const within = steps.filter((s) => s.m.wrk.latencyMs.p99 < MIXED_TARGET.p99Ms);
    const best = [...within].sort((a, b) => b.m.wrk.requestsPerSec - a.m.wrk.requestsPerSec)[0] ?? null;
    const agents = best ? best.m.wrk.requestsPerSec / readRate : 0;
    // The share is compared at the best step (or the first, when none kept p99 under the target).
    const compared = best ?? steps[0];
    const readsVia = await measureLoad(
      { ...ctx, opts: { ...ctx.opts, connections: compared.connections } },
      {
        label: `mixed reads alone through the gateway at ${compared.connections} connections`,
        url: gateway,
        headers: async () => ({}),
        freshRequests: freshMix,
      },
      ROUTE_SERVICES,
    );

    // Straight to the services: one run per owning service, its part of the reads, connections by share.
    const key = principalKey(BENCH_INTERNAL_SECRET);
    const agentsOf = fixtures.flatMap((f) => f.tokens.map((t) => principalFor(f.account, t)));
    const principals = async () => Promise.all(agentsOf.map((p) => signPrincipal(key, p)));
    const services = [...new Set(mix.map((r) => r.service))];
    const straight = async (
      service: ServiceName,
      paced: { delayMs: number; rate: number; connections: number } | null,
    ) => {
      ctx.checkAborted();
      const part = mix.filter((r) => r.service === service);
      const share = part.length / mix.length;
      const connections = paced?.connections ?? Math.max(ctx.opts.threads, Math.round(compared.connections * share));
      const partCtx: CaseContext = { ...ctx, opts: { ...ctx.opts, connections } };
      const how = paced
        ? `paced to ${fmt.int(paced.rate)} req/s on ${connections} connections`
        : `at ${connections} connections`;
      const m = await measureLoad(
        partCtx,
        {
          label: `mixed reads straight to ${service} (${fmt.pct(share * 100)} of them) ${how}`,
          url: ctx.stack.url(service),
          headers: async () => ({}),
          freshRequests: async () =>
            directRequests(
              (await freshMix()).filter((r) => r.service === service),
              await principals(),
            ),
          delayMs: paced?.delayMs,
        },
        [service],
      );
      ctx.log(
        `straight to ${service} ${how}: ${fmt.int(m.wrk.requestsPerSec)} req/s, p99 ${fmt.ms(m.wrk.latencyMs.p99)} ms`,
      );
      return { service, share, connections, how, m, us: stackUs(m) };
    };
    const weighted = (parts: Array<{ share: number; us: { total: number } | null }>) =>
      parts.every((p) => p.us) ? parts.reduce((a, p) => a + p.share * p.us!.total, 0) : null;
    const viaUs = stackUs(readsVia);
    const shareOf = (directUs: number | null) => (directUs !== null && viaUs ? 1 - directUs / viaUs.total : null);

    // At the compared step's connections, split by the parts' shares: each part is then served
    // faster than through the gateway, and a process's CPU per request falls as its load rises
    // (more requests per wake-up), so this comparison flatters the straight path.
    const parts: Array<Awaited<ReturnType<typeof straight>>> = [];
    for (const service of services) parts.push(await straight(service, null));
    const directUsAtConnections = weighted(parts);
    // The same reads at the rate they had through the gateway (each connection pausing between
    // answers, from the latency it had unpaced): the same work at the same load, the comparison
    // the target is judged on.
    const paced: Array<Awaited<ReturnType<typeof straight>>> = [];
    for (const p of parts) {
      const rate = readsVia.wrk.requestsPerSec * p.share;
      // Enough connections that each waits PACED_CYCLE_MS per request: the latency, which is only
      // estimated (from the unpaced run, at a higher load), is then a small part of the cycle.
      // A multiple of wrk's threads: each thread opens connections / threads (rounded down).
      const threads = ctx.opts.threads;
      const connections = threads * Math.max(1, Math.ceil((rate * PACED_CYCLE_MS) / 1000 / threads));
      const delayFor = (latencyMs: number) => Math.max(0, (connections * 1000) / rate - latencyMs);
      let run = await straight(p.service, { delayMs: delayFor(p.m.wrk.latencyMs.avg), rate, connections });
      // Off by more than PACED_TOLERANCE (paced, the latency is lower than unpaced): once more,
      // the delay from the latency the paced run had.
      if (Math.abs(run.m.wrk.requestsPerSec / rate - 1) > PACED_TOLERANCE)
        run = await straight(p.service, { delayMs: delayFor(run.m.wrk.latencyMs.avg), rate, connections });
      paced.push(run);
    }
    const directUs = weighted(paced);
    const shareAtRate = shareOf(directUs);
    const shareAtConnections = shareOf(directUsAtConnections);
    // No straight comparison is free of bias: at the same connections each part runs faster than
    // through the gateway (cheaper per request for that alone); at the same rate, paced evenly,
    // the services lose the bursts the gateway's pipelined connections give them (they batch the
    // reads of one turn), so they cost more per request than behind it. The sampled share (the
    // gateway's processes and Redis over the whole stack, in the run through the gateway) needs
    // no second run. The target is judged on the larger of it and the same-rate comparison.
    const sampledShare = viaUs ? viaUs.gatewaySide / viaUs.total : null;
    const measuredShare = shareAtRate !== null && sampledShare !== null ? Math.max(shareAtRate, sampledShare) : null;

    const loadAtEnd = loadAverage();
    const conditions = `${fixtures.length} accounts, ${fixtures.length * SHAPE.tokensPerAccount} agents' tokens, one agent = ${agentRate.toFixed(2)} req/s (its read and search budgets, a tenth of its submit and ask budgets; agents counted by the ${readRate.toFixed(2)} reads/s), ${codeOf(ctx.opts)}, log level ${ctx.opts.serviceEnv.LOG_LEVEL ?? LOG_LEVEL}, ${cores} cores, ${ctx.opts.duration} s runs after ${ctx.opts.warmup} s warm-up; load average ${loadAtStart.toFixed(2)} before, ${loadAtEnd.toFixed(2)} after`;
    const shareCell = (m: LoadMeasurement, besides = 0) => {
      const s = stackUs(m, besides);
      // The gateway's processes and Redis, as the target counts them.
      return s ? [fmt.int(s.total), fmt.pct((s.gatewaySide / s.total) * 100)] : ['?', '?'];
    };
    return {
      tables: [
        {
          title:
            'mixed — the agent loop through the gateway, wrk closed loop stepped up by connections; stack CPU (load tool left out)',
          table: {
            headers: [
              'run',
              'reads/s',
              'p50 ms',
              'p99 ms',
              'writes/s',
              'writes p50 / p99 ms',
              'agents',
              'stack CPU µs/request',
              'gateway + Redis sampled share',
              'load',
            ],
            rows: [
              ...steps.map(({ connections, m, w }) => [
                `through the gateway, ${connections} connections`,
                fmt.int(m.wrk.requestsPerSec),
                fmt.ms(m.wrk.latencyMs.p50),
                fmt.ms(m.wrk.latencyMs.p99),
                w.perSecond.toFixed(1),
                `${fmt.ms(w.p50)} / ${fmt.ms(w.p99)}`,
                fmt.int(m.wrk.requestsPerSec / readRate),
                ...shareCell(m, w.perSecond),
                m.loadBefore.toFixed(1),
              ]),
              [
                `reads alone through the gateway, ${compared.connections} connections`,
                fmt.int(readsVia.wrk.requestsPerSec),
                fmt.ms(readsVia.wrk.latencyMs.p50),
                fmt.ms(readsVia.wrk.latencyMs.p99),
                '',
                '',
                '',
                ...shareCell(readsVia),
                readsVia.loadBefore.toFixed(1),
              ],
              ...[...parts, ...paced].map(({ service, share, how, m }) => [
                `reads straight to ${service} (${fmt.pct(share * 100)} of them), ${how}`,
                fmt.int(m.wrk.requestsPerSec),
                fmt.ms(m.wrk.latencyMs.p50),
                fmt.ms(m.wrk.latencyMs.p99),
                '',
                '',
                '',
                ...shareCell(m),
                m.loadBefore.toFixed(1),
              ]),
            ],
          },
        },
      ],
      lines: [
        `conditions: ${conditions}`,
        `mix per agent: ${loopRoutes()
          .map((r) => `${r.route.operationId} ${r.perSecond.toFixed(3)}/s`)
          .join(
            ', ',
          )} (closed loop); ${WRITES.map((op) => `${op} ${writeRateOf(op).toFixed(3)}/s`).join(', ')} (open loop, ${WRITE_SHARE_OF_BUDGET * 100}% of their budgets, for the agents of the step before; the first after a ${fmt.int(probe.requestsPerSec)} reads/s probe)`,
        `agents at p99 < ${MIXED_TARGET.p99Ms} ms: ${fmt.int(agents)} (${fmt.int(agents / cores)} per core)${best ? ` at ${best.connections} connections` : ': no step kept p99 under the target'}`,
        `stack CPU per read of the mix: ${viaUs ? fmt.int(viaUs.total) : '?'} µs through the gateway (${compared.connections} connections, ${fmt.int(readsVia.wrk.requestsPerSec)} reads/s); straight to the services (weighted by the mix) ${directUs !== null ? fmt.int(directUs) : '?'} µs at the same rate, ${directUsAtConnections !== null ? fmt.int(directUsAtConnections) : '?'} µs at the same connections; the gateway's share ${shareAtRate !== null ? fmt.pct(shareAtRate * 100) : '?'} against the same rate, ${shareAtConnections !== null ? fmt.pct(shareAtConnections * 100) : '?'} against the same connections, ${sampledShare !== null ? fmt.pct(sampledShare * 100) : '?'} sampled (its processes ${viaUs ? fmt.pct((viaUs.gateway / viaUs.total) * 100) : '?'}, with Redis)`,
      ],
      data: {
        conditions: { loadAtStart, loadAtEnd, cores, agentRate, duration: ctx.opts.duration, warmup: ctx.opts.warmup },
        steps: steps.map(({ connections, m, w }) => ({
          connections,
          latencyMs: m.wrk.latencyMs,
          rps: m.wrk.requestsPerSec,
          writes: w,
          cpu: m.cpu,
          stackUs: stackUs(m, w.perSecond),
        })),
        readsVia: {
          connections: compared.connections,
          rps: readsVia.wrk.requestsPerSec,
          latencyMs: readsVia.wrk.latencyMs,
          cpu: readsVia.cpu,
        },
        direct: [...parts, ...paced].map((p) => ({
          service: p.service,
          share: p.share,
          how: p.how,
          rps: p.m.wrk.requestsPerSec,
          latencyMs: p.m.wrk.latencyMs,
          cpu: p.m.cpu,
          stackUs: p.us,
        })),
        agents,
        agentsPerCore: agents / cores,
        viaGatewayUs: viaUs?.total ?? null,
        directUs,
        measuredShare,
        shareAtRate,
        sampledShare,
        directUsAtConnections,
        shareAtConnections,
      },
      targets: [
        {
          label: `gateway's share of CPU per request <= ${MIXED_TARGET.gatewayShare * 100}% (mixed workload's reads; the larger of 1 - straight to the services at the same rate / through the gateway, and the gateway's and Redis's sampled share)`,
          pass: measuredShare !== null && measuredShare <= MIXED_TARGET.gatewayShare,
          measured:
            measuredShare !== null
              ? `${fmt.pct(measuredShare * 100)} (same rate ${fmt.pct(shareAtRate! * 100)}: ${fmt.int(viaUs!.total)} µs through the gateway, ${fmt.int(directUs!)} µs straight; sampled ${fmt.pct(sampledShare! * 100)}; against the straight runs at the same connections ${shareAtConnections !== null ? fmt.pct(shareAtConnections * 100) : '?'})`
              : 'not sampled',
        },
      ],
      summary: `${fmt.int(agents)} agents (${fmt.int(agents / cores)} per core) at p99 < ${MIXED_TARGET.p99Ms} ms; gateway share ${measuredShare !== null ? fmt.pct(measuredShare * 100) : '?'} measured; ${conditions}`,
    };
  },
};
