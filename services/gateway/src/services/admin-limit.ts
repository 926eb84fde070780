import type { Redis } from 'ioredis';
import type { Logger } from 'pino';
import './redis-commands';

/** Windows of the admin API's own limits, in seconds. */
const WINDOW_SECONDS = 60;
const FAILURE_WINDOW_SECONDS = 600;

const COUNT = `
local n = redis.call('INCR', KEYS[1])
if n == 1 then redis.call('EXPIRE', KEYS[1], ARGV[1]) end
return {n, redis.call('TTL', KEYS[1])}
`;
const PEEK = `
local n = tonumber(redis.call('GET', KEYS[1]) or '0')
return {n, redis.call('TTL', KEYS[1])}
`;

/**
 * The admin API's own rate limits, per client address, apart from the public API's: every request
 * counts against `requests` per minute, and a wrong or missing key against `failures` per 10
 * minutes; past that, the address is refused before its key is even compared (a key cannot be
 * guessed by trying). While Redis is away, nothing is limited (the public API's decision).
 */
export class AdminLimit {
  constructor(
    private readonly redis: Redis,
    private readonly limits: { requests: number; failures: number },
    private readonly logger: Logger,
  ) {
    redis.defineCommand('mmAdminCount', { numberOfKeys: 1, lua: COUNT });
    redis.defineCommand('mmAdminPeek', { numberOfKeys: 1, lua: PEEK });
  }

  /** Seconds to wait when the address is over a budget, else null; counts the request. */
  async admit(ip: string): Promise<number | null> {
    const r = this.redis;
    try {
      const [failed, failedTtl] = await r.mmAdminPeek(`rl:adminfail:${ip}`, 0);
      if (failed >= this.limits.failures) return Math.max(1, failedTtl);
      const [n, ttl] = await r.mmAdminCount(`rl:admin:${ip}`, WINDOW_SECONDS);
      return n > this.limits.requests ? Math.max(1, ttl) : null;
    } catch (err) {
      this.logger.warn({ err: String(err) }, 'redis unavailable: admin rate limit open');
      return null;
    }
  }

  /** Counts a request whose key was wrong or missing. */
  async failed(ip: string): Promise<void> {
    try {
      await this.redis.mmAdminCount(`rl:adminfail:${ip}`, FAILURE_WINDOW_SECONDS);
    } catch {
      // Counted by admit()'s warning already.
    }
  }
}
