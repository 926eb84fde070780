import { randomUUID } from 'node:crypto';
import type { Redis } from 'ioredis';
import type { Logger } from 'pino';
import { WALLET_VERSION_TTL_SECONDS, WALLETS_VERSION_KEY, walletVersionKey, walletVersionOf } from '@mm/http';

/** At most one warning this often while Redis cannot be told. */
const WARN_EVERY_MS = 10_000;

/**
 * Tells the gateways that an account's wallet changed: a new random version in Redis, which every
 * gateway reads with its rate limits and which voids the whoami answers it kept for the account.
 * Called after every ledger commit, before the write is answered, and again for every change the
 * ledger's trigger announces (other replicas, an operator in psql).
 *
 * A version that could not be set (Redis away) is logged, not retried: what a gateway kept before
 * the write is given again at most KEPT_ANSWER_MAX_AGE_MS after it was kept, and a gateway that
 * cannot reach Redis keeps and gives nothing.
 */
export class WalletVersions {
  private lastWarning = 0;

  constructor(
    private readonly redis: Redis,
    private readonly logger: Logger,
  ) {}

  /** Whether answers may be marked keepable now: changes can be announced. */
  get live(): boolean {
    return this.redis.status === 'ready';
  }

  /** The account's version as gateways read it; null when unknown or unreadable (nothing is then marked). */
  async current(accountId: string): Promise<string | null> {
    try {
      const [account, all] = await this.redis.mget(walletVersionKey(accountId), WALLETS_VERSION_KEY);
      return account && all ? walletVersionOf(account, all) : null;
    } catch {
      return null;
    }
  }

  /** A new version for the account, or for every account (`null`). Never throws. */
  async changed(accountId: string | null): Promise<void> {
    try {
      await this.redis.set(accountId === null ? WALLETS_VERSION_KEY : walletVersionKey(accountId), randomUUID(), 'EX', WALLET_VERSION_TTL_SECONDS);
    } catch (err) {
      const now = Date.now();
      if (now - this.lastWarning < WARN_EVERY_MS) return;
      this.lastWarning = now;
      this.logger.warn({ err: String(err), accountId }, 'could not set a wallet version: gateways may give whoami answers kept before this change for up to 10 s');
    }
  }
}
