import type { Kysely, Transaction } from 'kysely';
import type { Pool } from 'pg';
import { ApiError } from '@mm/http';
import { admit, balanceOf, DAY_MS } from '../domain/wallet';
import type { WalletSpend } from '@mm/contract';
import type { CreditKind, Database } from '../db/schema';
import { WalletRepository } from '../db/wallet.repository';
import { WalletSummaryCache } from './wallet-summary.cache';

export interface WalletLimits {
  dailyMeetingLimit: number;
  dailyAskLimit: number;
  trialOverdraftMinutes: number;
}

/** A hold for a meeting or the charge of an Ask, as the bus table carries it. */
export type SpendRequest = WalletSpend;

function refuse(r: NonNullable<ReturnType<typeof admit>>): never {
  const message = {
    DAILY_LIMIT_REACHED: 'The daily limit of the service is reached.',
    TOKEN_DAILY_CAP: "This would exceed the token's daily minute cap.",
    INSUFFICIENT_MINUTES: 'The balance is short of the price; nothing was spent.',
  }[r.code];
  const retryAfter = 'retryAfter' in r && r.retryAfter !== null ? { 'Retry-After': String(r.retryAfter) } : undefined;
  throw new ApiError(r.code, message, 'details' in r ? r.details : undefined, retryAfter);
}

/** `createdAt` for an entry: the database's time unless a test drives the clock. */
const at = (clock: Date | undefined) => (clock ? { createdAt: clock } : {});

/** Balance, available minutes and a token's 24-hour use. */
export interface WalletFigures {
  balanceMinutes: number;
  availableMinutes: number;
  usedMinutes24h: number;
}

/**
 * The wallet's use cases. Each runs in one transaction holding the account's wallet lock, and is
 * idempotent by its reference: a retried or redelivered request finds its entry and answers the same.
 * The optional `clock` of each use case lets tests drive time (rolling 24-hour windows); left
 * out, the clock is the real one and entries take the database's time.
 */
export class WalletService {
  readonly repo: WalletRepository;
  constructor(
    private readonly db: Kysely<Database>,
    private readonly limits: WalletLimits,
    pool: Pool,
    /** whoami's figures per account and token; every write below invalidates its account. */
    readonly summaries: WalletSummaryCache = new WalletSummaryCache(),
  ) {
    this.repo = new WalletRepository(db, pool);
  }

  /** Runs a money move in a transaction, then forgets the account's cached figures (after commit or failure). */
  private async move<T>(accountId: string, work: (trx: Transaction<Database>) => Promise<T>): Promise<T> {
    try {
      return await this.db.transaction().execute(work);
    } finally {
      this.summaries.invalidate(accountId);
    }
  }

  async credit(
    accountId: string,
    minutes: number,
    kind: CreditKind,
    reference: string,
    clock?: Date,
  ): Promise<{ balanceMinutes: number }> {
    return this.move(accountId, async (trx) => {
      await this.repo.lock(trx, accountId);
      if (!(await this.repo.byReference(trx, reference)))
        await this.repo.insert(trx, { accountId, kind: 'credit', creditKind: kind, minutes, reference, ...at(clock) });
      return { balanceMinutes: balanceOf(await this.repo.facts(trx, accountId)) };
    });
  }

  /** Holds a meeting's minutes at acceptance, after the daily limit, the token cap and the balance. */
  async hold(req: SpendRequest, clock?: Date): Promise<{ held: boolean; replay: boolean }> {
    return this.move(req.accountId, async (trx) => {
      // A dry run only reads: it never waits behind the account's spending.
      if (!req.dryRun) await this.repo.lock(trx, req.accountId);
      if (await this.repo.byReference(trx, `hold:${req.reference}`)) return { held: true as const, replay: true };
      const now = clock ?? new Date();
      const refusal = req.force
        ? null
        : admit({
            facts: await this.repo.facts(trx, req.accountId),
            price: req.minutes,
            now,
            dailyCount: {
              ...(await this.repo.dailyCount(trx, req.accountId, 'hold', now)),
              limit: this.limits.dailyMeetingLimit,
            },
            tokenCap:
              req.tokenId && req.dailyMinuteCap !== null
                ? { cap: req.dailyMinuteCap, spends: await this.repo.tokenSpends(trx, req.tokenId, now) }
                : null,
            showBalance: req.showBalance,
            trialOverdraftMinutes: this.limits.trialOverdraftMinutes,
            against: 'available',
          });
      if (refusal) refuse(refusal);
      if (req.dryRun) return { held: false, replay: false };
      await this.repo.insert(trx, {
        accountId: req.accountId,
        kind: 'hold',
        minutes: req.minutes,
        reference: `hold:${req.reference}`,
        tokenId: req.tokenId,
        forced: req.force === true,
        ...at(clock),
      });
      return { held: true as const, replay: false };
    });
  }

  /**
   * Charges a held meeting once, at transcript-ready. `minutes` may be below the hold (an
   * attachment that could not be used); the rest of the hold is simply not taken.
   */
  async capture(accountId: string, reference: string, minutes?: number, clock?: Date): Promise<{ captured: boolean }> {
    return this.close(accountId, reference, 'capture', minutes, clock);
  }

  /** Lets go of a hold: transcription failed, or the meeting was deleted before its transcript. */
  async release(accountId: string, reference: string, clock?: Date): Promise<{ captured: boolean }> {
    return this.close(accountId, reference, 'release', undefined, clock);
  }

  private async close(
    accountId: string,
    reference: string,
    kind: 'capture' | 'release',
    minutes?: number,
    clock?: Date,
  ): Promise<{ captured: boolean }> {
    return this.move(accountId, async (trx) => {
      await this.repo.lock(trx, accountId);
      const hold = await this.repo.byReference(trx, `hold:${reference}`);
      if (!hold) throw new ApiError('NOT_FOUND', `No hold for ${reference}.`);
      const closed = await this.repo.closing(trx, hold.reference);
      if (closed) return { captured: closed.kind === 'capture' };
      const charged = kind === 'capture' ? Math.min(hold.minutes, minutes ?? hold.minutes) : 0;
      await this.repo.insert(trx, {
        accountId,
        kind,
        minutes: charged,
        reference: `${kind}:${reference}`,
        holdReference: hold.reference,
        tokenId: hold.tokenId,
        ...at(clock),
      });
      return { captured: kind === 'capture' };
    });
  }

  /** Charges an Ask its quoted price (a refusal to answer is charged too). */
  async chargeAsk(req: SpendRequest, clock?: Date): Promise<{ charged: boolean; replay: boolean }> {
    return this.move(req.accountId, async (trx) => {
      if (!req.dryRun) await this.repo.lock(trx, req.accountId);
      if (await this.repo.byReference(trx, `ask:${req.reference}`)) return { charged: true as const, replay: true };
      const now = clock ?? new Date();
      const refusal = admit({
        facts: await this.repo.facts(trx, req.accountId),
        price: req.minutes,
        now,
        dailyCount: {
          ...(await this.repo.dailyCount(trx, req.accountId, 'ask_charge', now)),
          limit: this.limits.dailyAskLimit,
        },
        tokenCap:
          req.tokenId && req.dailyMinuteCap !== null
            ? { cap: req.dailyMinuteCap, spends: await this.repo.tokenSpends(trx, req.tokenId, now) }
            : null,
        showBalance: req.showBalance,
        trialOverdraftMinutes: 0,
        against: 'balance',
      });
      if (refusal) refuse(refusal);
      if (req.dryRun) return { charged: false, replay: false };
      await this.repo.insert(trx, {
        accountId: req.accountId,
        kind: 'ask_charge',
        minutes: req.minutes,
        reference: `ask:${req.reference}`,
        tokenId: req.tokenId,
        ...at(clock),
      });
      return { charged: true as const, replay: false };
    });
  }

  /** Open holds older than `olderThanSeconds`, for the recordings service's reconciler. */
  async staleHolds(
    olderThanSeconds: number,
    limit = 100,
    after?: { createdAt: string; reference: string },
  ): Promise<{ holds: { accountId: string; reference: string; createdAt: string }[] }> {
    return {
      holds: await this.repo.openHoldsBefore(this.db, new Date(Date.now() - olderThanSeconds * 1000), limit, after),
    };
  }

  /** Balance, available minutes and a token's 24-hour use, for whoami and the account. */
  async summary(accountId: string, tokenId: string | null, clock?: Date): Promise<WalletFigures> {
    const now = clock ?? new Date();
    const since = new Date(now.getTime() - DAY_MS);
    let s = this.summaries.get(accountId, tokenId, since);
    if (!s) {
      const mark = this.summaries.mark();
      s = await this.repo.summary(accountId, tokenId, since);
      this.summaries.set(mark, accountId, tokenId, s);
    }
    return { balanceMinutes: s.balance, availableMinutes: s.balance - s.openHolds, usedMinutes24h: s.used };
  }
}
