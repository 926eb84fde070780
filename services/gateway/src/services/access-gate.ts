import { randomUUID } from 'node:crypto';
import type { Redis } from 'ioredis';
import type { Logger } from 'pino';
import { RATE_CLASSES, RATE_WINDOW_SECONDS, type RateClass } from '@mm/contract';
import type { AccessRepository, ResolvedToken } from '../db/access.repository';
import type { Counted } from './redis-commands';

/**
 * Redis key whose value changes whenever access state changes (revocation, account, flags). Its
 * values never repeat (random, not a counter): a Redis that restarts empty, or a failover to a
 * replica that missed the last change, cannot bring back an epoch a stale cache entry was loaded at.
 */
export const ACCESS_EPOCH_KEY = 'mm:access:epoch';

/** The epoch as the gate reads it: a missing key (a Redis that restarted empty) gets a new value. */
const READ_EPOCH = `
local e = redis.call('GET', KEYS[3])
if not e then
  redis.call('SET', KEYS[3], ARGV[2], 'NX')
  e = redis.call('GET', KEYS[3])
end
`;

/**
 * One round trip per request: counts the request against the token's class budget and the IP's
 * budget (a fixed window that starts with the first request and lasts the rate window), and reads
 * the access epoch. Counting stays O(1) however far over budget a flood is.
 */
const SCRIPT = `
local t = redis.call('INCR', KEYS[1])
if t == 1 then redis.call('EXPIRE', KEYS[1], ARGV[1]) end
local tt = redis.call('TTL', KEYS[1])
local i = redis.call('INCR', KEYS[2])
if i == 1 then redis.call('EXPIRE', KEYS[2], ARGV[1]) end
local it = redis.call('TTL', KEYS[2])
${READ_EPOCH}
return {t, tt, i, it, e}
`;

/**
 * A request whose bearer is not a well-formed token: one counter per address of its own, so a
 * flood of junk never spends the budget that real tokens from the same address share.
 */
const JUNK_SCRIPT = `
local i = redis.call('INCR', KEYS[1])
if i == 1 then redis.call('EXPIRE', KEYS[1], ARGV[1]) end
local it = redis.call('TTL', KEYS[1])
${READ_EPOCH}
return {0, 0, i, it, e}
`;

/**
 * How long a cached token is trusted without reading Postgres even while the epoch says nothing
 * changed: the bound on a revocation whose epoch change was lost (a Redis failover that rolled it
 * back). docs/decisions.md.
 */
export const TOKEN_CACHE_MAX_AGE_MS = 10_000;

export interface GateResult {
  token: ResolvedToken | null;
  tokensDisabled: boolean;
  /** Seconds to wait when over budget; null when within budget (or Redis is down). */
  retryAfter: number | null;
}

interface CacheEntry {
  epoch: string;
  token: ResolvedToken | null;
  loadedAt: number;
}


const MAX_CACHE = 100_000;

/**
 * Resolves a token hash to its access state and applies the rate limits.
 *
 * Tokens are cached in memory, but an entry is trusted only while the access epoch in Redis is
 * the one it was loaded at: every admin change bumps the epoch after its commit, so a revocation
 * reaches every gateway replica on the very next request. While Redis is down the gateway reads
 * Postgres on every request and lets requests through without rate limits (decisions.md).
 */
export class AccessGate {
  private readonly cache = new Map<string, CacheEntry>();
  private flags: { epoch: string; tokensDisabled: boolean } | null = null;
  private lastRedisWarning = 0;

  constructor(
    private readonly repo: AccessRepository,
    private readonly redis: Redis,
    private readonly opts: { rateLimitScale: number; ipRateLimit: number; junkRateLimit: number; logger: Logger },
  ) {
    this.redis.defineCommand('mmGate', { numberOfKeys: 3, lua: SCRIPT });
    this.redis.defineCommand('mmJunk', { numberOfKeys: 3, lua: JUNK_SCRIPT });
  }

  /**
   * `hash` is null for a bearer that is not a well-formed token: it is counted in the address's
   * junk bucket alone and never looked up.
   */
  async check(hash: string | null, rateClass: RateClass, ip: string): Promise<GateResult> {
    let counted: Counted | null = null;
    const r = this.redis;
    try {
      counted = hash
        ? await r.mmGate(`rl:t:${hash.slice(0, 22)}:${rateClass}`, `rl:ip:${ip}`, ACCESS_EPOCH_KEY, RATE_WINDOW_SECONDS, randomUUID())
        : await r.mmJunk(`rl:junk:${ip}`, '', ACCESS_EPOCH_KEY, RATE_WINDOW_SECONDS, randomUUID());
    } catch (err) {
      this.warnRedis(err);
    }
    const epoch = counted ? String(counted[4]) : null;
    const [token, tokensDisabled] = await Promise.all([hash ? this.token(hash, epoch) : null, this.tokensDisabled(epoch)]);
    let retryAfter: number | null = null;
    if (counted) {
      const [t, tTtl, i, iTtl] = counted;
      const budget = RATE_CLASSES[rateClass].requests * this.opts.rateLimitScale;
      const ipBudget = (hash ? this.opts.ipRateLimit : this.opts.junkRateLimit) * this.opts.rateLimitScale;
      if (hash && t > budget) retryAfter = Math.max(1, tTtl);
      if (i > ipBudget) retryAfter = Math.max(retryAfter ?? 1, iTtl, 1);
    }
    return { token, tokensDisabled, retryAfter };
  }

  private async token(hash: string, epoch: string | null): Promise<ResolvedToken | null> {
    const now = Date.now();
    const hit = this.cache.get(hash);
    if (hit && epoch !== null && hit.epoch === epoch && now - hit.loadedAt < TOKEN_CACHE_MAX_AGE_MS) return hit.token;
    const token = await this.repo.findTokenByHash(hash);
    if (epoch !== null) {
      if (this.cache.size >= MAX_CACHE) this.cache.clear();
      this.cache.set(hash, { epoch, token, loadedAt: now });
    }
    return token;
  }

  private async tokensDisabled(epoch: string | null): Promise<boolean> {
    if (this.flags && epoch !== null && this.flags.epoch === epoch) return this.flags.tokensDisabled;
    const tokensDisabled = await this.repo.tokensDisabled();
    if (epoch !== null) this.flags = { epoch, tokensDisabled };
    return tokensDisabled;
  }

  private warnRedis(err: unknown): void {
    // Revocations made while Redis is away bump no epoch: forget everything cached.
    this.cache.clear();
    this.flags = null;
    const now = Date.now();
    if (now - this.lastRedisWarning > 10_000) {
      this.lastRedisWarning = now;
      this.opts.logger.warn({ err: String(err) }, 'redis unavailable: rate limits open, access read from postgres');
    }
  }
}

/**
 * Tells every gateway replica that access state changed; call after the change commits. Returns
 * false when Redis could not be told: replicas that still reach Redis may then trust their cache
 * for up to TOKEN_CACHE_MAX_AGE_MS.
 */
export async function bumpAccessEpoch(redis: Redis, logger: Logger): Promise<boolean> {
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      await redis.set(ACCESS_EPOCH_KEY, randomUUID());
      return true;
    } catch (err) {
      if (attempt === 2) logger.warn({ err: String(err) }, 'could not change the access epoch');
    }
  }
  return false;
}
