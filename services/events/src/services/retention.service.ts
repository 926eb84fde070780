import type { Logger } from 'pino';
import type { EventRepository } from '../db/event.repository';
import { DAY_MS, DELETE_AFTER_DAYS } from '../domain/feed-event';

const HOUR_MS = 3600 * 1000;

/** Deletes events older than 31 days now and then every hour; returns a stop function. */
export function startRetention(repo: EventRepository, logger: Logger, everyMs = HOUR_MS): () => void {
  const run = async () => {
    try {
      const deleted = await repo.deleteOlderThan(new Date(Date.now() - DELETE_AFTER_DAYS * DAY_MS));
      if (deleted) logger.info({ deleted }, 'old events deleted');
    } catch (err) {
      logger.warn({ err }, 'event retention failed; tried again next time');
    }
  };
  void run();
  const timer = setInterval(() => void run(), everyMs);
  timer.unref();
  return () => clearInterval(timer);
}
