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
/** How long a wrong key past its address's budget waits for its refusal (access-gate.ts's slow refusals). */
export const WRONG_KEY_DELAY_MS = 1000;

/**
 * The admin API's own limits, per client address, apart from the public API's. The key is
 * compared first: the right key counts against `requests` per minute in a bucket only the right
 * key fills, so no flood of wrong keys can lock its holder out (behind a proxy without
 * TRUSTED_PROXIES every client is one address). A wrong or missing key counts against `failures`
 * per 10 minutes; past that, its refusal is RATE_LIMITED and waits WRONG_KEY_DELAY_MS (a key
 * cannot be guessed by trying, and a flood is slowed). While Redis is away, nothing is limited
 * (the public API's decision).
 */
export class AdminLimit {
  constructor(
    private readonly redis: Redis,
    private readonly limits: { requests: number; failures: number },
    private readonly logger: Logger,
  ) {
    redis.defineCommand('mmAdminCount', { numberOfKeys: 1, lua: COUNT });
  }

  /** A request with the right key: seconds to wait when its address is over budget, else null. */
  async admitKeyHolder(address: string): Promise<number | null> {
    const counted = await this.count(`rl:admin:${address}`, WINDOW_SECONDS);
    return counted && counted[0] > this.limits.requests ? Math.max(1, counted[1]) : null;
  }

  /** A request with a wrong or missing key: counted; seconds to wait once its address is past the budget, else null. */
  async wrongKey(address: string): Promise<number | null> {
    const counted = await this.count(`rl:adminfail:${address}`, FAILURE_WINDOW_SECONDS);
    if (!counted || counted[0] <= this.limits.failures) return null;
    await new Promise((r) => setTimeout(r, WRONG_KEY_DELAY_MS));
    return Math.max(1, counted[1]);
  }

  private async count(key: string, window: number): Promise<[number, number] | null> {
    try {
      return await this.redis.mmAdminCount(key, window);
    } catch (err) {
      this.logger.warn({ err: String(err) }, 'redis unavailable: admin rate limit open');
      return null;
    }
  }
}
