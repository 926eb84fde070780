import { availableParallelism } from 'node:os';
import { EnvReader, readCommonConfig, type CommonConfig } from '@mm/http';
import { TrustedProxies } from './domain/client-address';
import { readSignInConfig, type SignInConfig } from './sign-in.config';

export interface GatewayConfig extends CommonConfig, SignInConfig {
  redisUrl: string;
  adminApiKey: string | null;
  tokenHashKey: string;
  /** Multiplies every rate budget, the per-IP one included (raised only for load tests). */
  rateLimitScale: number;
  /** Requests per IP address per rate window, before scaling. */
  ipRateLimit: number;
  /** Requests per IP address per rate window whose bearer is not a well-formed token (their own bucket). */
  junkRateLimit: number;
  /** The admin API's own limits per address: requests per minute, wrong keys per 10 minutes. */
  adminRateLimit: number;
  adminAuthFailureLimit: number;
  /** Port of /readyz and /metrics, never the public one (0 when the gateway itself takes a free port). */
  opsPort: number;
  /** Gateway processes sharing the public port (GATEWAY_WORKERS; default one per available core, 1 = no cluster). */
  workers: number;
  /**
   * Reads (GETs) in flight on one connection to an owning service (GATEWAY_UPSTREAM_PIPELINING,
   * default 16; 1 = no pipelining), and connections per service and gateway process
   * (GATEWAY_UPSTREAM_CONNECTIONS, default no limit: a new one opens whenever every open one is full).
   */
  upstreamPipelining: number;
  upstreamConnections: number | null;
  /** Proxies (CIDRs) whose X-Forwarded-For the gateway believes: in Kubernetes, the ingress. */
  trustedProxies: TrustedProxies;
  /** IPv6 clients' budgets are counted per network of this many bits (IPV6_BUDGET_PREFIX, default 64; 128 = per address). */
  ipv6BudgetPrefix: number;
}

function readTrustedProxies(r: EnvReader): TrustedProxies {
  try {
    return TrustedProxies.parse(r.optional('TRUSTED_PROXIES'));
  } catch (err) {
    r.problem(`TRUSTED_PROXIES must be addresses or CIDRs separated by commas (${(err as Error).message})`);
    return TrustedProxies.parse(null);
  }
}

function readPrefix(r: EnvReader): number {
  const bits = r.num('IPV6_BUDGET_PREFIX', 64, 1);
  if (!Number.isInteger(bits) || bits > 128)
    r.problem(`IPV6_BUDGET_PREFIX must be a whole number of bits from 1 to 128 (got ${bits})`);
  return bits;
}

/** Reads the gateway's environment once; every bad variable is reported at once. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Readonly<GatewayConfig> {
  const r = new EnvReader(env);
  const common = readCommonConfig(r, 'gateway');
  return r.done('gateway', {
    ...common,
    ...readSignInConfig(r),
    redisUrl: r.url('REDIS_URL', ['redis', 'rediss'], 'redis://127.0.0.1:6379'),
    adminApiKey: r.optionalSecret('ADMIN_API_KEY'),
    tokenHashKey: r.secret('TOKEN_HASH_KEY', `${common.internalJwtSecret}:token-hash`),
    rateLimitScale: r.num('RATE_LIMIT_SCALE', 1, 1),
    ipRateLimit: r.num('IP_RATE_LIMIT', 50_000, 1),
    junkRateLimit: r.num('JUNK_RATE_LIMIT', 1_000, 1),
    trustedProxies: readTrustedProxies(r),
    ipv6BudgetPrefix: readPrefix(r),
    adminRateLimit: r.num('ADMIN_RATE_LIMIT', 3_000, 1),
    adminAuthFailureLimit: r.num('ADMIN_AUTH_FAILURE_LIMIT', 30, 1),
    opsPort: r.num('OPS_PORT', 9080, 0),
    workers: Math.floor(r.num('GATEWAY_WORKERS', availableParallelism(), 1)),
    upstreamPipelining: Math.floor(r.num('GATEWAY_UPSTREAM_PIPELINING', 16, 1)),
    upstreamConnections:
      r.optional('GATEWAY_UPSTREAM_CONNECTIONS') === null
        ? null
        : Math.floor(r.num('GATEWAY_UPSTREAM_CONNECTIONS', 0, 1)),
  });
}
