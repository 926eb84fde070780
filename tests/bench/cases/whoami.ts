/**
 * whoami through the gateway (token checks, rate limit + epoch in Redis, principal, proxy) and
 * straight at the account service (principal verified, wallet figures from the summary cache), under the same load.
 * The ratio between the two is the gateway's cost; the target is the gateway's absolute figure.
 */
import { PRINCIPAL_HEADER, principalKey, signPrincipal, type Principal } from '@mm/http';
import { createAccount, createToken, type BenchAccount, type BenchToken } from '../lib/admin';
import { cpuBoundCeiling, cpuPerRequestUs, measureLoad, type LoadMeasurement } from '../lib/load';
import { fmt } from '../lib/report';
import { BENCH_INTERNAL_SECRET } from '../lib/stack';
import { BenchError, type BenchCase, type CaseContext, type CaseReport, type ServiceName } from '../lib/types';

/** The target of the public API's cheapest authenticated read, at 50 connections on the 2-core machine. */
export const WHOAMI_TARGET = { requestsPerSec: 3000, p99Ms: 20, connections: 50 };

const SERVICES: ServiceName[] = ['account', 'gateway'];
const BALANCE = 1000;

/** The principal the gateway would forward for this token (same fields, so the account does the same work). */
function principalFor(account: BenchAccount, token: BenchToken): Principal {
  return {
    accountId: account.id,
    displayName: account.displayName,
    source: 'token',
    tokenId: token.id,
    tokenName: token.name,
    tokenExpiresAt: token.expiresAt,
    scopes: token.scopes as Principal['scopes'],
    dailyMinuteCap: token.dailyMinuteCap,
    features: account.features,
  };
}

async function getJson(url: string, headers: Record<string, string>): Promise<unknown> {
  const res = await fetch(url, { headers, signal: AbortSignal.timeout(10_000) });
  const text = await res.text();
  if (res.status !== 200) throw new BenchError(`GET ${url} answered ${res.status} before the load started: ${text}`);
  return JSON.parse(text);
}

function cpuLine(m: LoadMeasurement): string {
  if (!m.cpu) return `${m.label}: CPU not sampled (run too short)`;
  const parts = m.cpu.byGroup.filter((g) => g.percentOfCore >= 0.5).map((g) => `${g.label} ${fmt.pct(g.percentOfCore)}`);
  return `${m.label}: ${parts.join(', ')} of one core; machine ${fmt.pct(m.cpu.machineBusyPercent)} busy of ${m.cpu.cores} cores, steal ${fmt.pct(m.cpu.stealPercent)}`;
}

export const whoamiCase: BenchCase = {
  name: 'whoami',
  description: 'GET /api/v1/whoami through the gateway vs GET /whoami on the account service directly (wrk)',
  implemented: true,
  services: SERVICES,
  async run(ctx: CaseContext): Promise<CaseReport> {
    const gateway = ctx.stack.url('gateway');
    const direct = ctx.stack.url('account');
    const maxJwtLife = 55; // principals live 60 s (libs/http PRINCIPAL_TTL_SECONDS); one is signed per wrk run
    if (ctx.opts.duration > maxJwtLife || ctx.opts.warmup > maxJwtLife) {
      throw new BenchError(`whoami: --duration and --warmup must be <= ${maxJwtLife} s (the direct run's principal lives 60 s)`);
    }

    const account = await createAccount(gateway, { displayName: 'bench whoami', developerMode: true, balanceMinutes: BALANCE });
    const token = await createToken(gateway, account.id, { name: 'bench whoami', scopes: ['recordings:read', 'account:read'], expiresInDays: 30 });
    ctx.log(`account ${account.id}, token ${token.id}`);
    const key = principalKey(BENCH_INTERNAL_SECRET);
    const principal = principalFor(account, token);
    const gatewayHeaders = async () => ({ Authorization: `Bearer ${token.value}` });
    const directHeaders = async () => ({ [PRINCIPAL_HEADER]: await signPrincipal(key, principal) });

    // Both paths must answer the same resource, or the comparison measures different work.
    const viaGateway = await getJson(`${gateway}/api/v1/whoami`, await gatewayHeaders());
    const viaDirect = await getJson(`${direct}/whoami`, await directHeaders());
    const balance = (viaGateway as { wallet?: { balanceMinutes?: number } | null }).wallet?.balanceMinutes;
    if (balance !== BALANCE) {
      throw new BenchError(
        `whoami shows a balance of ${balance}, not the ${BALANCE} minutes credited: another account service on the same NATS took the credit (run on the bench's private NATS, without --nats-url, or check BUS_NAMESPACE)`,
      );
    }
    if (JSON.stringify(viaGateway) !== JSON.stringify(viaDirect)) {
      throw new BenchError(`whoami answers differ between the gateway and the account service:\n gateway: ${JSON.stringify(viaGateway)}\n direct:  ${JSON.stringify(viaDirect)}`);
    }

    const gw = await measureLoad(ctx, { label: 'gateway /api/v1/whoami', url: `${gateway}/api/v1/whoami`, headers: gatewayHeaders }, SERVICES);
    ctx.checkAborted();
    const dr = await measureLoad(ctx, { label: 'account /whoami (direct)', url: `${direct}/whoami`, headers: directHeaders }, SERVICES);

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
    const cpuRow = (m: LoadMeasurement) => {
      const per = cpuPerRequestUs(m);
      if (!per) return [m.label, ...perLabels.map(() => '?'), '?', '?'];
      const ceiling = cpuBoundCeiling(m);
      return [m.label, ...per.map((g) => fmt.int(g.us)), fmt.int(per.reduce((a, g) => a + g.us, 0)), ceiling ? fmt.int(ceiling) : '?'];
    };
    const perLabels = (cpuPerRequestUs(gw) ?? cpuPerRequestUs(dr) ?? []).map((g) => g.label);
    const rpsRatio = gw.wrk.requestsPerSec / dr.wrk.requestsPerSec;
    const p99Ratio = gw.wrk.latencyMs.p99 / dr.wrk.latencyMs.p99;
    const { connections } = ctx.opts;
    const atTargetLoad = connections === WHOAMI_TARGET.connections && ctx.opts.threads === 2;
    return {
      tables: [
        {
          title: `whoami — wrk ${ctx.opts.threads} threads, ${connections} connections, ${ctx.opts.duration} s after ${ctx.opts.warmup} s warm-up`,
          table: {
            headers: ['target', 'req/s', 'p50 ms', 'p90 ms', 'p99 ms', 'max ms', 'requests', 'errors'],
            rows: [row(gw), row(dr), ['gateway / direct', fmt.ratio(rpsRatio), fmt.ratio(gw.wrk.latencyMs.p50 / dr.wrk.latencyMs.p50), fmt.ratio(gw.wrk.latencyMs.p90 / dr.wrk.latencyMs.p90), fmt.ratio(p99Ratio), '', '', '']],
          },
        },
        {
          title: 'CPU time per request (µs), sampled per process over the steady middle of each run',
          table: {
            headers: ['target', ...perLabels, 'total', `req/s if alone on ${gw.cpu?.cores ?? '?'} cores`],
            rows: [cpuRow(gw), cpuRow(dr)],
          },
        },
      ],
      lines: [
        `ratio gateway/direct: req/s ${fmt.ratio(rpsRatio)}, p99 ${fmt.ratio(p99Ratio)}`,
        'CPU during the measured runs (steady middle):',
        `  ${cpuLine(gw)}`,
        `  ${cpuLine(dr)}`,
        `load average before the runs: gateway ${gw.loadBefore.toFixed(2)}, direct ${dr.loadBefore.toFixed(2)}${Math.max(gw.loadBefore, dr.loadBefore) > 1 ? ' — the machine was not idle; numbers may be low (see "other" above)' : ''}`,
      ],
      data: Object.fromEntries(
        [['gateway', gw] as const, ['direct', dr] as const].map(([k, m]) => [
          k,
          { requestsPerSec: m.wrk.requestsPerSec, latencyMs: m.wrk.latencyMs, requests: m.wrk.requests, exact: m.wrk.exact, cpu: m.cpu, cpuPerRequestUs: cpuPerRequestUs(m), ceiling: cpuBoundCeiling(m), loadBefore: m.loadBefore },
        ]),
      ),
      targets: [
        {
          label: `gateway >= ${WHOAMI_TARGET.requestsPerSec} req/s and p99 < ${WHOAMI_TARGET.p99Ms} ms at ${WHOAMI_TARGET.connections} connections${atTargetLoad ? '' : ` (measured at ${connections} connections, ${ctx.opts.threads} threads: indicative only)`}`,
          pass: gw.wrk.requestsPerSec >= WHOAMI_TARGET.requestsPerSec && gw.wrk.latencyMs.p99 < WHOAMI_TARGET.p99Ms,
          measured: `${fmt.int(gw.wrk.requestsPerSec)} req/s, p99 ${fmt.ms(gw.wrk.latencyMs.p99)} ms`,
        },
      ],
    };
  },
};
