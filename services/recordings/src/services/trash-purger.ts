import type { Kysely } from 'kysely';
import type { NatsConnection } from 'nats';
import { request } from '@mm/bus';
import { BUS } from '@mm/contract';
import { Periodic } from '@mm/platform';
import type { ObjectStore } from '@mm/store';
import type { Database } from '../db/schema';
import { RecordingRepository } from '../db/recordings.repository';
import { inTransaction } from '../db/transaction';

/** What the purger writes to the log (a pino logger is one). */
export interface PurgeLog {
  info(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
}

export interface TrashPurgeOptions {
  /** A deleted meeting stays restorable from the trash this many days, then it is purged for good. */
  days: number;
  intervalSeconds: number;
  /** Meetings purged per transaction. */
  batch: number;
}

/** When a meeting deleted at `deletedAt` is purged (the trash page shows it). */
export const purgeAtOf = (deletedAt: Date, days: number): Date => new Date(deletedAt.getTime() + days * 86_400_000);

/**
 * Removes for good the meetings deleted more than `days` ago: first their rows here (transcript,
 * digest, silent-meeting count, the meeting) in one transaction, then, after the commit, what
 * other services keep of them (ask's questions and answers, over the bus) and their audio and
 * working files in the store. Each batch takes its meetings with FOR UPDATE SKIP LOCKED, so
 * replicas share the work and a restore racing a purge wins (the meeting is then no longer due). The meeting's Idempotency-Key row stays (a key
 * never makes a second meeting; a replay of a purged one answers 404). Events already in the feed
 * age out with the feed (30 days).
 */
export class TrashPurger {
  private readonly loop: Periodic<number>;

  constructor(
    private readonly deps: { db: Kysely<Database>; nc: NatsConnection; store: ObjectStore; logger: PurgeLog },
    private readonly opts: TrashPurgeOptions,
  ) {
    this.loop = new Periodic(() => this.pass(), {
      everyMs: opts.intervalSeconds * 1000,
      failed: 0,
      failureMessage: 'trash purge failed; next pass will retry',
      log: deps.logger,
    });
  }

  start(): void {
    this.loop.start();
  }

  stop(): Promise<void> {
    return this.loop.stop();
  }

  /** One pass over every meeting due; answers how many it purged. */
  runOnce(): Promise<number> {
    return this.loop.runOnce();
  }

  private async pass(): Promise<number> {
    let purged = 0;
    for (;;) {
      const n = await this.batch();
      purged += n;
      if (n < this.opts.batch) return purged;
    }
  }

  private async batch(): Promise<number> {
    const { db, nc, store, logger } = this.deps;
    const cutoff = new Date(Date.now() - this.opts.days * 86_400_000);
    // The rows first, in one transaction with no request, store write or wallet call inside it.
    const purged = await inTransaction(db, (trx) =>
      new RecordingRepository(db).purgeDeleted(trx, cutoff, this.opts.batch),
    );
    // Then, after the commit, what ask and the store keep of them. Nothing can reach a purged
    // meeting any more, so this is safe to repeat; a pass cut off here leaves only unreachable
    // files and questions behind (logged below with their keys), never a half-restorable meeting.
    for (const r of purged) {
      const keys = [
        ...new Set([`audio/${r.id}`, `work/${r.id}`, r.audioKey, ...(r.attachmentKey ? [r.attachmentKey] : [])]),
      ];
      const { deleted: asks } = await request(
        nc,
        BUS.askForgetMeeting,
        { accountId: r.accountId, recordingId: r.id },
        { timeoutMs: 10_000 },
      );
      for (const key of keys) await store.remove(key);
      logger.info(
        { recordingId: r.id, accountId: r.accountId, deletedAt: r.deletedAt, asks, storeKeys: keys },
        'purged a meeting from the trash',
      );
    }
    return purged.length;
  }
}
