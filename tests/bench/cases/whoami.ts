/**
 * whoami through the gateway (token checks, rate limit + epoch in Redis, principal, proxy) with
 * 1,000 tokens used round robin, at the services' default log level; beside it, in the same run,
 * the account service straight (principal verified, wallet figures from the summary cache) and a
 * bare node:http server in its own process answering the same bytes. The targets: the gateway's
 * p99, and its throughput as a share of the bare server's (two HTTP hops, a Redis call and a
 * signature on 2 cores put the limit near 0.3x).
 */
import { PRINCIPAL_HEADER, principalKey, signPrincipal } from '@mm/http';
import { gatewayWorkersBesideServices } from '@mm/platform';
import { createAccount, createToken, principalFor, type BenchAccount, type BenchToken } from '../lib/admin';
import { startBareServer } from '../lib/bare-server';
import { cpuBoundCeiling, cpuLine, cpuPerRequestUs, measureLoad, type LoadMeasurement } from '../lib/load';
import { loadAverage } from '../lib/proc';
import { fmt } from '../lib/report';
import { BENCH_INTERNAL_SECRET } from '../lib/stack';
import { BenchError, type BenchCase, type CaseContext, type CaseReport, type ServiceName } from '../lib/types';

/** The targets of the public API's cheapest authenticated read, at 50 connections on the 2-core machine. */
export const WHOAMI_TARGET = { p99Ms: 20, shareOfBare: 0.25, connections: 50 };

const SERVICES: ServiceName[] = ['account', 'gateway'];
const BALANCE = 1000;
/** 1,000 tokens: 100 accounts with 10 each (per-account and per-token caches both see many keys). */
const ACCOUNTS = 100;
const TOKENS_PER_ACCOUNT = 10;
/** The services' own default (libs/http/src/config.ts): this case measures logging as deployed. */
const LOG_LEVEL = 'info';

async function getJson(url: string, headers: Record<string, string>): Promise<unknown> {
  const res = await fetch(url, { headers, signal: AbortSignal.timeout(10_000) });
  const text = await res.text();
  if (res.status !== 200) throw new BenchError(`GET ${url} answered ${res.status} before the load started: ${text}`);
  return JSON.parse(text);
}

/** Creates the accounts and their tokens through the admin API, a few calls at a time. */
async function makeTokens(gateway: string): Promise<Array<{ account: BenchAccount; token: BenchToken }>> {
  const made: Array<{ account: BenchAccount; token: BenchToken }> = [];
  for (let a = 0; a < ACCOUNTS; a += 10) {
    const batch = await Promise.all(
      Array.from({ length: Math.min(10, ACCOUNTS - a) }, async (_, i) => {
        const account = await createAccount(gateway, {
          displayName: `bench whoami ${a + i}`,
          developerMode: true,
          balanceMinutes: BALANCE,
        });
        const tokens: BenchToken[] = [];
        for (let t = 0; t < TOKENS_PER_ACCOUNT; t++) {
          tokens.push(
            await createToken(gateway, account.id, {
              name: `bench whoami ${t}`,
              scopes: ['recordings:read', 'account:read'],
              expiresInDays: 30,
            }),
          );
        }
        return tokens.map((token) => ({ account, token }));
      }),
    );
    made.push(...batch.flat());
  }
  return made;
}

export const whoamiCase: BenchCase = {
  name: 'whoami',
  description:
    'GET /api/v1/whoami through the gateway (1,000 tokens round robin, default log level) vs the account service direct vs a bare node:http server (wrk)',
  implemented: true,
  services: SERVICES,
  env: { LOG_LEVEL },
  async run(ctx: CaseContext): Promise<CaseReport> {
    const gateway = ctx.stack.url('gateway');
    const direct = ctx.stack.url('account');
    const maxJwtLife = 55; // principals live 60 s (libs/http PRINCIPAL_TTL_SECONDS); one is signed per wrk run
    if (ctx.opts.duration > maxJwtLife || ctx.opts.warmup > maxJwtLife) {
      throw new BenchError(
        `whoami: --duration and --warmup must be <= ${maxJwtLife} s (the direct run's principal lives 60 s)`,
      );
    }
    const loadAtStart = loadAverage();
    const logLevel = ctx.opts.serviceEnv.LOG_LEVEL ?? LOG_LEVEL;
    const workers = Number(ctx.opts.serviceEnv.GATEWAY_WORKERS ?? gatewayWorkersBesideServices());

    const pairs = await makeTokens(gateway);
    const { account, token } = pairs[0];
    ctx.log(`${ACCOUNTS} accounts, ${pairs.length} tokens; the direct run uses ${token.id}`);
    const key = principalKey(BENCH_INTERNAL_SECRET);
    const principal = principalFor(account, token);
    const directHeaders = async () => ({ [PRINCIPAL_HEADER]: await signPrincipal(key, principal) });

    // Both paths must answer the same resource, or the comparison measures different work.
    const viaGateway = await getJson(`${gateway}/api/v1/whoami`, { Authorization: `Bearer ${token.value}` });
    const viaDirect = await getJson(`${direct}/whoami`, await directHeaders());
    const balance = (viaGateway as { wallet?: { balanceMinutes?: number } | null }).wallet?.balanceMinutes;
    if (balance !== BALANCE) {
      throw new BenchError(
        `whoami shows a balance of ${balance}, not the ${BALANCE} minutes credited: another account service on the same NATS took the credit (run on the bench's private NATS, without --nats-url, or check BUS_NAMESPACE)`,
      );
    }
    if (JSON.stringify(viaGateway) !== JSON.stringify(viaDirect)) {
      throw new BenchError(
        `whoami answers differ between the gateway and the account service:\n gateway: ${JSON.stringify(viaGateway)}\n direct:  ${JSON.stringify(viaDirect)}`,
      );
    }
    // Every token answers as itself through the gateway (a sample: the first token of each account).
    for (const pair of pairs.filter((_, i) => i % TOKENS_PER_ACCOUNT === 0)) {
      const me = (await getJson(`${gateway}/api/v1/whoami`, { Authorization: `Bearer ${pair.token.value}` })) as {
        token?: { id?: string };
      };
      if (me.token?.id !== pair.token.id)
        throw new BenchError(`token ${pair.token.id} answered whoami as ${JSON.stringify(me.token)}`);
    }

    const bare = await startBareServer(JSON.stringify(viaGateway));
    let gw: LoadMeasurement;
    let dr: LoadMeasurement;
    let bs: LoadMeasurement;
    try {
      const bareGroup = { label: 'bare', pids: () => [bare.pid] };
      gw = await measureLoad(
        ctx,
        {
          label: `gateway /api/v1/whoami (${pairs.length} tokens)`,
          url: `${gateway}/api/v1/whoami`,
          headers: async () => ({}),
          rotateHeader: { name: 'Authorization', values: pairs.map((p) => `Bearer ${p.token.value}`) },
          extraGroups: [bareGroup],
        },
        SERVICES,
      );
      ctx.checkAborted();
      dr = await measureLoad(
        ctx,
        {
          label: 'account /whoami (direct)',
          url: `${direct}/whoami`,
          headers: directHeaders,
          extraGroups: [bareGroup],
        },
        SERVICES,
      );
      ctx.checkAborted();
      bs = await measureLoad(
        ctx,
        {
          label: 'bare node:http (same bytes)',
          url: `${bare.url}/`,
          headers: async () => ({}),
          extraGroups: [bareGroup],
        },
        SERVICES,
      );
    } finally {
      await bare.stop();
    }
    const loadAtEnd = loadAverage();

    const row = (m: LoadMeasurement) => [
      m.label,
      fmt.int(m.wrk.requestsPerSec),
      fmt.ms(m.wrk.latencyMs.p50),
      fmt.ms(m.wrk.latencyMs.p90),
      fmt.ms(m.wrk.latencyMs.p99),
      fmt.ms(m.wrk.latencyMs.max),
      fmt.int(m.wrk.requests),
      '0',
    ];
    const perLabels = (cpuPerRequestUs(gw) ?? cpuPerRequestUs(dr) ?? []).map((g) => g.label);
    const cpuRow = (m: LoadMeasurement) => {
      const per = cpuPerRequestUs(m);
      if (!per) return [m.label, ...perLabels.map(() => '?'), '?', '?'];
      const ceiling = cpuBoundCeiling(m);
      return [
        m.label,
        ...per.map((g) => fmt.int(g.us)),
        fmt.int(per.reduce((a, g) => a + g.us, 0)),
        ceiling ? fmt.int(ceiling) : '?',
      ];
    };
    const shareOfBare = gw.wrk.requestsPerSec / bs.wrk.requestsPerSec;
    const rpsRatio = gw.wrk.requestsPerSec / dr.wrk.requestsPerSec;
    const p99Ratio = gw.wrk.latencyMs.p99 / dr.wrk.latencyMs.p99;
    const { connections } = ctx.opts;
    const atTargetLoad = connections === WHOAMI_TARGET.connections && ctx.opts.threads === 2;
    const indicative = atTargetLoad
      ? ''
      : ` (measured at ${connections} connections, ${ctx.opts.threads} threads: indicative only)`;
    const conditions = `log level ${logLevel}, gateway workers ${workers}, ${pairs.length} tokens over ${ACCOUNTS} accounts round robin, wrk ${ctx.opts.threads} threads, ${connections} connections; load average ${loadAtStart.toFixed(2)} before, ${loadAtEnd.toFixed(2)} after`;
    return {
      tables: [
        {
          title: `whoami — wrk ${ctx.opts.threads} threads, ${connections} connections, ${ctx.opts.duration} s after ${ctx.opts.warmup} s warm-up`,
          table: {
            headers: ['target', 'req/s', 'p50 ms', 'p90 ms', 'p99 ms', 'max ms', 'requests', 'errors'],
            rows: [
              row(gw),
              row(dr),
              row(bs),
              [
                'gateway / direct',
                fmt.ratio(rpsRatio),
                fmt.ratio(gw.wrk.latencyMs.p50 / dr.wrk.latencyMs.p50),
                fmt.ratio(gw.wrk.latencyMs.p90 / dr.wrk.latencyMs.p90),
                fmt.ratio(p99Ratio),
                '',
                '',
                '',
              ],
              ['gateway / bare', fmt.ratio(shareOfBare), '', '', '', '', '', ''],
            ],
          },
        },
        {
          title: 'CPU time per request (µs), sampled per process over the steady middle of each run',
          table: {
            headers: ['target', ...perLabels, 'total', `req/s if alone on ${gw.cpu?.cores ?? '?'} cores`],
            rows: [cpuRow(gw), cpuRow(dr), cpuRow(bs)],
          },
        },
      ],
      lines: [
        `conditions: ${conditions}`,
        `ratio gateway/direct: req/s ${fmt.ratio(rpsRatio)}, p99 ${fmt.ratio(p99Ratio)}; gateway/bare req/s ${fmt.ratio(shareOfBare)}`,
        'CPU during the measured runs (steady middle):',
        `  ${cpuLine(gw)}`,
        `  ${cpuLine(dr)}`,
        `  ${cpuLine(bs)}`,
        `load average before each run: gateway ${gw.loadBefore.toFixed(2)}, direct ${dr.loadBefore.toFixed(2)}, bare ${bs.loadBefore.toFixed(2)}${Math.max(gw.loadBefore, dr.loadBefore, bs.loadBefore) > 1 ? ' — the machine was not idle; numbers may be low (see "other" above)' : ''}`,
      ],
      data: {
        conditions: {
          logLevel,
          workers,
          tokens: pairs.length,
          accounts: ACCOUNTS,
          connections,
          threads: ctx.opts.threads,
          loadAtStart,
          loadAtEnd,
        },
        ...Object.fromEntries(
          [['gateway', gw] as const, ['direct', dr] as const, ['bare', bs] as const].map(([k, m]) => [
            k,
            {
              requestsPerSec: m.wrk.requestsPerSec,
              latencyMs: m.wrk.latencyMs,
              requests: m.wrk.requests,
              exact: m.wrk.exact,
              cpu: m.cpu,
              cpuPerRequestUs: cpuPerRequestUs(m),
              ceiling: cpuBoundCeiling(m),
              loadBefore: m.loadBefore,
            },
          ]),
        ),
      },
      targets: [
        {
          label: `gateway p99 < ${WHOAMI_TARGET.p99Ms} ms at ${WHOAMI_TARGET.connections} connections${indicative}`,
          pass: gw.wrk.latencyMs.p99 < WHOAMI_TARGET.p99Ms,
          measured: `p99 ${fmt.ms(gw.wrk.latencyMs.p99)} ms (${fmt.int(gw.wrk.requestsPerSec)} req/s)`,
        },
        {
          label: `gateway throughput >= ${WHOAMI_TARGET.shareOfBare}x the bare node:http server's${indicative}`,
          pass: shareOfBare >= WHOAMI_TARGET.shareOfBare,
          measured: `${fmt.ratio(shareOfBare)} (${fmt.int(gw.wrk.requestsPerSec)} vs ${fmt.int(bs.wrk.requestsPerSec)} req/s)`,
        },
      ],
      summary: `${fmt.int(gw.wrk.requestsPerSec)} req/s (${fmt.ratio(shareOfBare)} of bare ${fmt.int(bs.wrk.requestsPerSec)}), p99 ${fmt.ms(gw.wrk.latencyMs.p99)} ms; ${conditions}`,
    };
  },
};
