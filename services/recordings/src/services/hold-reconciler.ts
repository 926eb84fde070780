import type { Kysely } from 'kysely';
import type { NatsConnection } from 'nats';
import type { Logger } from 'pino';
import { request } from '@mm/bus';
import { BUS } from '@mm/contract';
import { Periodic } from '@mm/platform';
import type { Database } from '../db/schema';
import { RecordingRepository } from '../db/recordings.repository';
import { meetingOfHold, staleHoldAction } from '../domain/stale-hold';

interface StaleHold {
  accountId: string;
  reference: string;
  createdAt: string;
}

const PAGE = 100;
const MAX_PAGES = 50;

export interface HoldReconcilerOptions {
  /** A hold open longer than this is looked at (far beyond any submit, retry or restore request). */
  staleSeconds: number;
  intervalSeconds: number;
}

/**
 * Releases orphan holds: minutes held for a meeting that was never created (the service stopped
 * between the hold and the meeting's commit) or held again but never attached. Every replica may
 * run it; releases are idempotent by reference.
 */
export class HoldReconciler {
  private readonly loop: Periodic<number>;

  constructor(
    private readonly deps: { db: Kysely<Database>; nc: NatsConnection; logger: Logger },
    private readonly opts: HoldReconcilerOptions,
  ) {
    this.loop = new Periodic(() => this.pass(), {
      everyMs: opts.intervalSeconds * 1000,
      failed: 0,
      failureMessage: 'hold reconciliation failed; next pass will retry',
      log: deps.logger,
    });
  }

  start(): void {
    this.loop.start();
  }

  stop(): Promise<void> {
    return this.loop.stop();
  }

  /** One pass; answers how many holds it released. */
  runOnce(): Promise<number> {
    return this.loop.runOnce();
  }

  /** Pages through every stale hold (the meetings' own holds are kept, so orphans may sit behind many of them). */
  private async pass(): Promise<number> {
    let released = 0;
    let after: { createdAt: string; reference: string } | undefined;
    for (let page = 0; page < MAX_PAGES; page++) {
      const { holds } = await request(
        this.deps.nc,
        BUS.walletStaleHolds,
        { olderThanSeconds: this.opts.staleSeconds, limit: PAGE, after },
        { timeoutMs: 10_000 },
      );
      for (const h of holds) if (await this.settle(h)) released++;
      if (holds.length < PAGE) break;
      after = holds[holds.length - 1];
    }
    return released;
  }

  /** Releases one stale hold if it is an orphan; true when it did. */
  private async settle(h: StaleHold): Promise<boolean> {
    const meeting = await new RecordingRepository(this.deps.db).holdOf(this.deps.db, meetingOfHold(h.reference));
    // A hold of another account's meeting id is no hold of that meeting.
    if (staleHoldAction(h.reference, meeting?.accountId === h.accountId ? meeting : null) === 'keep') return false;
    await request(
      this.deps.nc,
      BUS.walletRelease,
      { accountId: h.accountId, reference: h.reference },
      { timeoutMs: 10_000 },
    );
    this.deps.logger.warn({ accountId: h.accountId, reference: h.reference }, 'released an orphan hold');
    return true;
  }
}
