import type { Logger } from 'pino';
import { Periodic } from '@mm/platform';
import type { EventRepository } from '../db/event.repository';
import { DAY_MS, DELETE_AFTER_DAYS } from '../domain/feed-event';

const HOUR_MS = 3600 * 1000;

export interface RetentionOptions {
  /** Rows per DELETE: each is a short statement of its own, so no long transaction and no long lock. */
  batchSize: number;
  /**
   * Pause between batches, at least as long as the batch took (the deleter never uses more than
   * half of the database's time), so a large backlog never takes the database from the feed's reads.
   */
  pauseMs: number;
}

export const DEFAULT_RETENTION: RetentionOptions = { batchSize: 1000, pauseMs: 20 };

export interface PruneResult {
  deleted: number;
  batches: number;
}

/**
 * Deletes every event older than `before`, oldest first, batch by batch until none is left (or
 * `stopped()` says the service is going away; the next run goes on from there).
 */
export async function pruneEvents(
  repo: EventRepository,
  before: Date,
  opts: RetentionOptions = DEFAULT_RETENTION,
  stopped: () => boolean = () => false,
): Promise<PruneResult> {
  let deleted = 0;
  let batches = 0;
  while (!stopped()) {
    const started = Date.now();
    const n = await repo.deleteOlderThan(before, opts.batchSize);
    deleted += n;
    batches += 1;
    if (n < opts.batchSize) break;
    await new Promise((resolve) => setTimeout(resolve, Math.max(opts.pauseMs, Date.now() - started)));
  }
  return { deleted, batches };
}

/**
 * Deletes events older than 31 days now and then every hour; returns a stop function that waits
 * for a pass under way (which ends at its next batch).
 */
export function startRetention(
  repo: EventRepository,
  logger: Logger,
  everyMs = HOUR_MS,
  opts: RetentionOptions = DEFAULT_RETENTION,
): () => Promise<void> {
  const loop: Periodic<void> = new Periodic(
    async () => {
      const before = new Date(Date.now() - DELETE_AFTER_DAYS * DAY_MS);
      const { deleted, batches } = await pruneEvents(repo, before, opts, () => loop.stopped);
      if (deleted) logger.info({ deleted, batches }, 'old events deleted');
    },
    {
      everyMs,
      failed: undefined,
      failureMessage: 'event retention failed; tried again next time',
      log: logger,
      runAtStart: true,
    },
  );
  loop.start();
  return () => loop.stop();
}
