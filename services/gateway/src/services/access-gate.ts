import type { Redis } from 'ioredis';
import type { Logger } from 'pino';
import { RATE_CLASSES, RATE_WINDOW_SECONDS, type RateClass } from '@mm/contract';
import type { AccessRepository, ResolvedToken } from '../db/access.repository';

/** Redis key whose value changes whenever access state changes (revocation, account, flags). */
export const ACCESS_EPOCH_KEY = 'mm:access:epoch';

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
local e = redis.call('GET', KEYS[3])
return {t, tt, i, it, e or '0'}
`;

export interface GateResult {
  token: ResolvedToken | null;
  tokensDisabled: boolean;
  /** Seconds to wait when over budget; null when within budget (or Redis is down). */
  retryAfter: number | null;
}

interface CacheEntry {
  epoch: string;
  token: ResolvedToken | null;
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
    private readonly opts: { rateLimitScale: number; ipRateLimit: number; logger: Logger },
  ) {
    this.redis.defineCommand('mmGate', { numberOfKeys: 3, lua: SCRIPT });
  }

  async check(hash: string, wellFormed: boolean, rateClass: RateClass, ip: string): Promise<GateResult> {
    let counted: [number, number, number, number, string] | null = null;
    try {
      counted = await (this.redis as unknown as { mmGate: (...a: unknown[]) => Promise<[number, number, number, number, string]> }).mmGate(
        `rl:t:${hash.slice(0, 22)}:${rateClass}`,
        `rl:ip:${ip}`,
        ACCESS_EPOCH_KEY,
        RATE_WINDOW_SECONDS,
      );
    } catch (err) {
      this.warnRedis(err);
    }
    const epoch = counted ? String(counted[4]) : null;
    const [token, tokensDisabled] = await Promise.all([this.token(hash, wellFormed, epoch), this.tokensDisabled(epoch)]);
    let retryAfter: number | null = null;
    if (counted) {
      const [t, tTtl, i, iTtl] = counted;
      const budget = RATE_CLASSES[rateClass].requests * this.opts.rateLimitScale;
      const ipBudget = this.opts.ipRateLimit * this.opts.rateLimitScale;
      if (t > budget) retryAfter = Math.max(1, tTtl);
      if (i > ipBudget) retryAfter = Math.max(retryAfter ?? 1, iTtl, 1);
    }
    return { token, tokensDisabled, retryAfter };
  }

  private async token(hash: string, wellFormed: boolean, epoch: string | null): Promise<ResolvedToken | null> {
    if (!wellFormed) return null;
    const hit = this.cache.get(hash);
    if (hit && epoch !== null && hit.epoch === epoch) return hit.token;
    const token = await this.repo.findTokenByHash(hash);
    if (epoch !== null) {
      if (this.cache.size >= MAX_CACHE) this.cache.clear();
      this.cache.set(hash, { epoch, token });
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

/** Tells every gateway replica that access state changed; call after the change commits. */
export async function bumpAccessEpoch(redis: Redis, logger: Logger): Promise<void> {
  try {
    await redis.incr(ACCESS_EPOCH_KEY);
  } catch (err) {
    // Without Redis no replica trusts its cache, so the change is still seen at once.
    logger.warn({ err: String(err) }, 'could not bump the access epoch');
  }
}
