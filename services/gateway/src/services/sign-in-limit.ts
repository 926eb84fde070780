import { createHash } from 'node:crypto';
import type { Redis } from 'ioredis';
import type { Logger } from 'pino';

/** Wrong passwords counted over this window, per email and per client address. */
const WINDOW_SECONDS = 15 * 60;

export interface SignInLimits {
  /** Failures of one email after which each answer is slowed (doubling from `slowMs`, at most 16 times it). */
  slowAfter: number;
  slowMs: number;
  /** Failures of one email after which sign-in to it is refused for the rest of the window. */
  refuseAfterPerAccount: number;
  /** Failures from one address after which it is refused (any email). */
  refuseAfterPerAddress: number;
}

export const DEFAULT_SIGN_IN_LIMITS: SignInLimits = {
  slowAfter: 3,
  slowMs: 250,
  refuseAfterPerAccount: 10,
  refuseAfterPerAddress: 50,
};

/** What the limit says of one attempt before the password is checked. */
export type Admission = { refused: true; retryAfterSeconds: number } | { refused: false; delayMs: number };

/** The rule: refused past either count (until its window ends), else slowed past `slowAfter`, doubling. */
export function admissionOf(
  c: { byEmail: number; emailTtl: number; byIp: number; ipTtl: number },
  limits: SignInLimits,
): Admission {
  if (c.byEmail >= limits.refuseAfterPerAccount) return { refused: true, retryAfterSeconds: Math.max(1, c.emailTtl) };
  if (c.byIp >= limits.refuseAfterPerAddress) return { refused: true, retryAfterSeconds: Math.max(1, c.ipTtl) };
  const over = c.byEmail - limits.slowAfter;
  return { refused: false, delayMs: over < 0 ? 0 : limits.slowMs * 2 ** Math.min(4, over) };
}

/**
 * Slows and then refuses sign-in per email and per client address (after TRUSTED_PROXIES). Keyed
 * by the email typed, known or not, so the limit says nothing of whether an account exists; and
 * per email rather than per account, so one person's attacker never locks out another account.
 * While Redis is away every attempt waits one second instead (argon2 already costs each guess).
 */
export class SignInLimit {
  constructor(
    private readonly redis: Redis,
    private readonly limits: SignInLimits,
    private readonly logger: Logger,
  ) {}

  private keys(email: string, ip: string): [string, string] {
    const e = createHash('sha256').update(email.trim().toLowerCase()).digest('base64url');
    return [`signin:email:${e}`, `signin:ip:${ip}`];
  }

  async admit(email: string, ip: string): Promise<Admission> {
    const [ek, ik] = this.keys(email, ip);
    try {
      const res = await this.redis.multi().get(ek).ttl(ek).get(ik).ttl(ik).exec();
      const [byEmail, emailTtl, byIp, ipTtl] = (res ?? []).map(([, v]) => Number(v ?? 0));
      return admissionOf({ byEmail, emailTtl, byIp, ipTtl }, this.limits);
    } catch (err) {
      this.logger.warn({ err: String(err) }, 'redis unavailable: every sign-in waits 1 s');
      return { refused: false, delayMs: 1000 };
    }
  }

  async failed(email: string, ip: string): Promise<void> {
    const [ek, ik] = this.keys(email, ip);
    try {
      await this.redis
        .multi()
        .incr(ek)
        .expire(ek, WINDOW_SECONDS, 'NX')
        .incr(ik)
        .expire(ik, WINDOW_SECONDS, 'NX')
        .exec();
    } catch {
      // Logged by admit() already.
    }
  }
}
