import type { Kysely } from 'kysely';
import type { NatsConnection } from 'nats';
import type { Logger } from 'pino';
import { request } from '@mm/bus';
import { BUS } from '@mm/contract';
import type { ObjectStore } from '@mm/store';
import type { Database } from '../db/schema';

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
 * Removes for good the meetings deleted more than `days` ago: first what other services keep of
 * them (ask's questions and answers, over the bus), then their audio and working files in the
 * store, then their rows here (transcript, digest, silent-meeting count, the meeting). Each batch
 * takes its meetings with FOR UPDATE SKIP LOCKED, so replicas share the work, a restore racing a
 * purge waits for it (or wins, and the meeting is no longer due), and every step is idempotent:
 * a pass cut off anywhere is finished by the next. The meeting's Idempotency-Key row stays (a key
 * never makes a second meeting; a replay of a purged one answers 404). Events already in the feed
 * age out with the feed (30 days).
 */
export class TrashPurger {
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<number> | null = null;

  constructor(
    private readonly deps: { db: Kysely<Database>; nc: NatsConnection; store: ObjectStore; logger: Logger },
    private readonly opts: TrashPurgeOptions,
  ) {}

  start(): void {
    this.timer = setInterval(() => void this.runOnce(), this.opts.intervalSeconds * 1000);
    this.timer.unref();
  }

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.running?.catch(() => undefined);
  }

  /** One pass over every meeting due; answers how many it purged. */
  runOnce(): Promise<number> {
    this.running ??= this.pass()
      .catch((err: unknown) => {
        this.deps.logger.warn({ err: String(err) }, 'trash purge failed; next pass will retry');
        return 0;
      })
      .finally(() => {
        this.running = null;
      });
    return this.running;
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
    return db.transaction().execute(async (trx) => {
      const due = await trx
        .selectFrom('recording')
        .select(['id', 'accountId', 'audioKey', 'attachmentKey', 'deletedAt'])
        .where('deletedAt', 'is not', null)
        .where('deletedAt', '<', cutoff)
        .orderBy('deletedAt')
        .limit(this.opts.batch)
        .forUpdate()
        .skipLocked()
        .execute();
      for (const r of due) {
        const { deleted: asks } = await request(
          nc,
          BUS.askForgetMeeting,
          { accountId: r.accountId, recordingId: r.id },
          { timeoutMs: 10_000 },
        );
        const keys = [`audio/${r.id}`, `work/${r.id}`, r.audioKey, ...(r.attachmentKey ? [r.attachmentKey] : [])];
        for (const key of new Set(keys)) await store.remove(key);
        await trx.deleteFrom('transcript').where('recordingId', '=', r.id).execute();
        await trx.deleteFrom('digest').where('recordingId', '=', r.id).execute();
        await trx.deleteFrom('silentMeeting').where('recordingId', '=', r.id).execute();
        await trx.deleteFrom('recording').where('id', '=', r.id).execute();
        logger.info(
          { recordingId: r.id, accountId: r.accountId, deletedAt: r.deletedAt, asks, storeKeys: [...new Set(keys)] },
          'purged a meeting from the trash',
        );
      }
      return due.length;
    });
  }
}
