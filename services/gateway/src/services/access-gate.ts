import { randomUUID } from 'node:crypto';
import type { Redis } from 'ioredis';
import type { Logger } from 'pino';
import { serviceCounter } from '@mm/http';
import { RATE_CLASSES, RATE_WINDOW_SECONDS, type RateBudget, type RateClass } from '@mm/contract';
import type { AccessRepository, ResolvedToken } from '../db/access.repository';
import type { Counted } from './redis-commands';
import { TokenLoader } from './token-loader';

/** Counted on every Redis failure, not only on the warning logged every 10 s: an alert's signal. */
const redisUnavailable = () =>
  serviceCounter(
    'gateway',
    'gateway_redis_unavailable_total',
    'Requests whose Redis calls failed: rate limits were open and access was read from Postgres (alert on any rise)',
  );

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
 * the access epoch and the address's junk count (unknown tokens it sent). Counting stays O(1)
 * however far over budget a flood is.
 */
const SCRIPT = `
local t = redis.call('INCR', KEYS[1])
if t == 1 then redis.call('EXPIRE', KEYS[1], ARGV[1]) end
local tt = redis.call('TTL', KEYS[1])
local i = redis.call('INCR', KEYS[2])
if i == 1 then redis.call('EXPIRE', KEYS[2], ARGV[1]) end
local it = redis.call('TTL', KEYS[2])
${READ_EPOCH}
local j = tonumber(redis.call('GET', KEYS[4]) or '0')
return {t, tt, i, it, e, j, redis.call('TTL', KEYS[4])}
`;

/**
 * A request whose bearer is not a well-formed token, or (with its own key) a well-formed one no
 * token has (the checksum is a public CRC: anyone can make them): one counter per address of its
 * own, so a flood of junk never spends the budget that real tokens from the same address share.
 */
const JUNK_SCRIPT = `
local i = redis.call('INCR', KEYS[1])
if i == 1 then redis.call('EXPIRE', KEYS[1], ARGV[1]) end
local it = redis.call('TTL', KEYS[1])
${READ_EPOCH}
return {0, 0, i, it, e}
`;

/**
 * How old the proof against Postgres behind a cached token may be: the bound on a revocation whose
 * epoch change was lost (a Redis failover that rolled it back). The proof is one read of the access
 * version (migration 0003), which triggers change with every committed write to access state, so a
 * worker proves all its cached tokens at once instead of reloading each. docs/decisions.md.
 */
export const TOKEN_CACHE_MAX_AGE_MS = 10_000;
/** The version is read again this long before its proof runs out, without making a request wait. */
const REFRESH_AHEAD_MS = 2_000;

/**
 * Refusals a token may meet in one window before its next ones are answered slowly: a client that
 * honours Retry-After meets one, or a few in flight at once. One that keeps sending (a hostile
 * flood, an agent's retry loop) is answered after SLOW_REFUSAL_MS, which bounds a closed loop to
 * one request per connection per second at no cost to anyone else (decisions.md).
 */
export const PROMPT_REFUSALS = 10;
export const SLOW_REFUSAL_MS = 1000;

export interface GateResult {
  token: ResolvedToken | null;
  tokensDisabled: boolean;
  /** Seconds to wait when over budget; null when within budget (or Redis is down). */
  retryAfter: number | null;
  /** How long to hold this token's refusal: it kept sending past its budget (0 otherwise). */
  slowDownMs: number;
  /**
   * The address is past its junk budget and the bearer is not a token this gateway has seen:
   * refused RATE_LIMITED (retryAfter) before any lookup.
   */
  junkLimited: boolean;
  /** The token's budget of the class after this request (the RateLimit fields); null when not counted. */
  rate: RateBudget | null;
}

/** A cached lookup, trusted only while both the Redis epoch and the Postgres version it was loaded at hold. */
interface CacheEntry<T> {
  epoch: string;
  version: string;
  value: T;
}

const MAX_CACHE = 100_000;
/**
 * Hashes no token has are remembered this long, apart from the live tokens' cache (a flood of
 * fakes neither costs a lookup each time one repeats nor pushes live tokens out). Only a token
 * created within this long of a client guessing its 256-bit value could be refused by it.
 */
export const UNKNOWN_TOKEN_TTL_MS = 30_000;
const MAX_UNKNOWN = 10_000;

/**
 * Resolves a token hash to its access state and applies the rate limits.
 *
 * Tokens are cached in memory, but an entry is trusted only while the access epoch in Redis is
 * the one it was loaded at: every admin change bumps the epoch after its commit, so a revocation
 * reaches every gateway replica on the very next request. An entry also needs the access version
 * in Postgres to be unchanged, as read at most TOKEN_CACHE_MAX_AGE_MS ago. While Redis is down
 * the gateway reads Postgres on every request and lets requests through without rate limits
 * (decisions.md).
 */
export class AccessGate {
  private readonly cache = new Map<string, CacheEntry<ResolvedToken>>();
  /** Hashes found to belong to no token, and until when that answer is given again. */
  private readonly unknown = new Map<string, number>();
  private flags: CacheEntry<boolean> | null = null;
  /** The access version as last read from Postgres, and when that read began. */
  private pg: { version: string; readAt: number } | null = null;
  private pgReading: Promise<string> | null = null;
  private lastRedisWarning = 0;
  private readonly loader: TokenLoader;

  constructor(
    /** What the gate reads of the access schema. */
    private readonly repo: Pick<AccessRepository, 'findTokensByHashes' | 'accessVersion' | 'tokensDisabled'>,
    private readonly redis: Redis,
    private readonly opts: {
      rateLimitScale: number;
      ipRateLimit: number;
      junkRateLimit: number;
      logger: Logger;
      maxCachedTokens?: number;
    },
  ) {
    this.loader = new TokenLoader(repo);
    this.redis.defineCommand('mmGate', { numberOfKeys: 4, lua: SCRIPT });
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
        ? await r.mmGate(
            `rl:t:${hash.slice(0, 22)}:${rateClass}`,
            `rl:ip:${ip}`,
            ACCESS_EPOCH_KEY,
            `rl:unknown:${ip}`,
            RATE_WINDOW_SECONDS,
            randomUUID(),
          )
        : await r.mmJunk(`rl:junk:${ip}`, '', ACCESS_EPOCH_KEY, RATE_WINDOW_SECONDS, randomUUID());
    } catch (err) {
      this.warnRedis(err);
    }
    const epoch = counted ? String(counted[4]) : null;
    const limited = hash && counted && !this.cache.has(hash) ? this.addressLimit(counted) : null;
    if (limited) {
      this.countJunk(ip);
      return { token: null, tokensDisabled: false, ...limited, junkLimited: true, rate: null };
    }
    // Without the epoch nothing cached can be trusted, and there is nothing to prove against Postgres.
    const version = epoch === null ? null : await this.pgVersion();
    const [token, tokensDisabled] = await Promise.all([
      hash ? this.token(hash, epoch, version) : null,
      this.tokensDisabled(epoch, version),
    ]);
    if (hash && token === null && counted) this.countJunk(ip);
    let retryAfter: number | null = null;
    let slowDownMs = 0;
    let rate: RateBudget | null = null;
    if (counted) {
      const [t, tTtl, i, iTtl] = counted;
      const budget = RATE_CLASSES[rateClass].requests * this.opts.rateLimitScale;
      if (hash) rate = { limit: budget, remaining: Math.max(0, budget - t), resetSeconds: Math.max(1, tTtl) };
      const ipBudget = (hash ? this.opts.ipRateLimit : this.opts.junkRateLimit) * this.opts.rateLimitScale;
      if (hash && t > budget) retryAfter = Math.max(1, tTtl);
      if (hash && t > budget + PROMPT_REFUSALS) slowDownMs = SLOW_REFUSAL_MS;
      if (i > ipBudget) retryAfter = Math.max(retryAfter ?? 1, iTtl, 1);
    }
    return { token, tokensDisabled, retryAfter, slowDownMs, junkLimited: !hash && retryAfter !== null, rate };
  }

  /**
   * A bearer no token in this gateway's cache has, from an address past its budget of unknown
   * tokens or its budget of requests: refused before any lookup, so an attacker's fakes cost one
   * Postgres lookup each only within the budget (a live token from there would be refused for the
   * address's requests anyway). Null when within both.
   */
  private addressLimit(counted: Counted): { retryAfter: number; slowDownMs: number } | null {
    const [, , i, iTtl, , unknown, unknownTtl] = counted;
    const scale = this.opts.rateLimitScale;
    const over = Math.max(unknown - this.opts.junkRateLimit * scale, i - this.opts.ipRateLimit * scale - 1);
    if (over < 0) return null;
    const retryAfter = Math.max(
      1,
      unknown >= this.opts.junkRateLimit * scale ? unknownTtl : 0,
      i > this.opts.ipRateLimit * scale ? iTtl : 0,
    );
    return { retryAfter, slowDownMs: over >= PROMPT_REFUSALS ? SLOW_REFUSAL_MS : 0 };
  }

  /**
   * Counts an unknown token against its address's budget of them (not awaited: the refusal does
   * not wait for it). Malformed bearers have a counter of their own: they cost no lookup, so they
   * never keep a live token that is not cached yet from being looked up.
   */
  private countJunk(ip: string): void {
    this.redis
      .mmJunk(`rl:unknown:${ip}`, '', ACCESS_EPOCH_KEY, RATE_WINDOW_SECONDS, randomUUID())
      .catch(() => undefined);
  }

  /**
   * The access version, read at most TOKEN_CACHE_MAX_AGE_MS ago. Read again in the background a
   * little before that, and awaited only once the proof has run out (one read for all requests).
   */
  private async pgVersion(): Promise<string> {
    const pg = this.pg;
    const age = pg ? Date.now() - pg.readAt : Infinity;
    if (pg && age < TOKEN_CACHE_MAX_AGE_MS - REFRESH_AHEAD_MS) return pg.version;
    const reading = this.readPgVersion();
    if (pg && age < TOKEN_CACHE_MAX_AGE_MS) {
      reading.catch(() => undefined); // a failed early read is tried again by the next request
      return pg.version;
    }
    return reading;
  }

  private readPgVersion(): Promise<string> {
    this.pgReading ??= (async () => {
      // The start of the read, not its end: the version seen may be as old as that.
      const readAt = Date.now();
      try {
        const version = await this.repo.accessVersion();
        this.pg = { version, readAt };
        return version;
      } finally {
        this.pgReading = null;
      }
    })();
    return this.pgReading;
  }

  private async token(hash: string, epoch: string | null, version: string | null): Promise<ResolvedToken | null> {
    const hit = this.cache.get(hash);
    if (hit && hit.epoch === epoch && hit.version === version) return hit.value;
    const now = Date.now();
    if ((this.unknown.get(hash) ?? 0) > now) return null;
    // Loaded after `version` was read, so the row is at least as new as the version it is kept under.
    const token = await this.loader.load(hash);
    if (token === null) {
      this.cache.delete(hash);
      if (this.unknown.size >= MAX_UNKNOWN) this.unknown.clear();
      this.unknown.set(hash, now + UNKNOWN_TOKEN_TTL_MS);
    } else if (epoch !== null && version !== null) {
      // Full: the oldest entry goes (a Map keeps insertion order), never the whole cache at once.
      if (!hit && this.cache.size >= (this.opts.maxCachedTokens ?? MAX_CACHE))
        this.cache.delete(this.cache.keys().next().value!);
      this.cache.set(hash, { epoch, version, value: token });
    }
    return token;
  }

  private async tokensDisabled(epoch: string | null, version: string | null): Promise<boolean> {
    const hit = this.flags;
    if (hit && hit.epoch === epoch && hit.version === version) return hit.value;
    const tokensDisabled = await this.repo.tokensDisabled();
    if (epoch !== null && version !== null) this.flags = { epoch, version, value: tokensDisabled };
    return tokensDisabled;
  }

  private warnRedis(err: unknown): void {
    redisUnavailable().inc();
    // Revocations made while Redis is away bump no epoch: forget everything cached.
    this.cache.clear();
    this.unknown.clear();
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
