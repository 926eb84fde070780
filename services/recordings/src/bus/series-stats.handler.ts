import type { Kysely } from 'kysely';
import type { NatsConnection, Subscription } from 'nats';
import type { Logger } from 'pino';
import { serve } from '@mm/bus';
import { BUS, type SeriesStatsReply } from '@mm/contract';
import type { Database } from '../db/schema';
import { RecordingRepository } from '../db/recordings.repository';

/**
 * Finished meetings per series, for the series service's `meetingCount` and `lastRecordedAt`.
 * Counts READY, not deleted meetings: exactly what listReadyRecordings with seriesId lists. Every
 * asked id gets an entry (0 and null when it has none). Access is the asker's business: the
 * series service asks only about series the caller can read.
 */
export async function seriesStatsOf(db: Kysely<Database>, seriesIds: string[]): Promise<SeriesStatsReply['stats']> {
  const found = await new RecordingRepository(db).seriesStats(db, [...new Set(seriesIds)]);
  // No prototype: an id such as `__proto__` stays a plain key.
  const stats: SeriesStatsReply['stats'] = Object.create(null);
  for (const id of seriesIds) {
    const s = found.get(id);
    stats[id] = s
      ? { meetingCount: s.meetingCount, lastRecordedAt: s.lastRecordedAt.toISOString() }
      : { meetingCount: 0, lastRecordedAt: null };
  }
  return stats;
}

/** Answers `seriesStats` {seriesIds} with {stats: {[seriesId]: {meetingCount, lastRecordedAt}}}. */
export function serveSeriesStats(nc: NatsConnection, db: Kysely<Database>, logger: Logger): Subscription {
  return serve(
    nc,
    BUS.seriesStats,
    async (p) => ({ stats: await seriesStatsOf(db, p.seriesIds) }),
    (err) => logger.error({ err }, 'seriesStats failed'),
  );
}
