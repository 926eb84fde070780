import type { Kysely } from 'kysely';
import type { NatsConnection, Subscription } from 'nats';
import type { Logger } from 'pino';
import { serveRequests } from '@mm/bus';
import { ApiError, createAjv } from '@mm/http';
import type { Database } from '../db/schema';
import { RecordingRepository } from '../db/recording.repository';

/** Most series one request may ask about; the series service sends one request per response. */
export const SERIES_STATS_MAX_IDS = 1000;

export interface SeriesStats {
  meetingCount: number;
  lastRecordedAt: string | null;
}

// This payload schema belongs in libs/contract beside the other bus payloads once it has them.
const ajv = createAjv();
const valid = ajv.compile({
  type: 'object',
  properties: { seriesIds: { type: 'array', maxItems: SERIES_STATS_MAX_IDS, items: { type: 'string', minLength: 1, maxLength: 64 } } },
  required: ['seriesIds'],
  additionalProperties: true,
});

/**
 * Finished meetings per series, for the series service's `meetingCount` and `lastRecordedAt`.
 * Counts READY, not deleted meetings: exactly what listReadyRecordings with seriesId lists. Every
 * asked id gets an entry (0 and null when it has none). Access is the asker's business: the
 * series service asks only about series the caller can read.
 */
export async function seriesStatsOf(db: Kysely<Database>, seriesIds: string[]): Promise<Record<string, SeriesStats>> {
  const found = await new RecordingRepository(db).seriesStats(db, [...new Set(seriesIds)]);
  // No prototype: an id such as `__proto__` stays a plain key.
  const stats: Record<string, SeriesStats> = Object.create(null);
  for (const id of seriesIds) {
    const s = found.get(id);
    stats[id] = s ? { meetingCount: s.meetingCount, lastRecordedAt: s.lastRecordedAt.toISOString() } : { meetingCount: 0, lastRecordedAt: null };
  }
  return stats;
}

/** Answers `recordings.series.stats` {seriesIds} with {stats: {[seriesId]: {meetingCount, lastRecordedAt}}}. */
export function serveSeriesStats(nc: NatsConnection, db: Kysely<Database>, logger: Logger): Subscription {
  return serveRequests(
    nc,
    'recordings.series.stats',
    async (payload) => {
      if (!valid(payload)) throw new ApiError('VALIDATION', `recordings.series.stats: ${ajv.errorsText(valid.errors)}`);
      return { stats: await seriesStatsOf(db, (payload as { seriesIds: string[] }).seriesIds) };
    },
    (err) => logger.error({ err }, 'recordings.series.stats failed'),
  );
}
