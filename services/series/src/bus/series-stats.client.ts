import type { NatsConnection } from 'nats';
import type { Logger } from 'pino';
import { request } from '@mm/bus';
import { BUS, type SeriesChange, type SeriesStatsReply } from '@mm/contract';
import type { MeetingStats } from '../domain/series';
import type { MeetingStatsSource } from '../services/series.service';

/** How long a series answer waits for the recordings service's counts. */
export const SERIES_STATS_TIMEOUT_MS = 2000;
/** The recordings service's limit on ids per request (the table's `seriesStats`). */
const MAX_IDS_PER_REQUEST = 1000;

/** Thrown when the recordings service did not answer in time: the series answer fails (500) rather than show a false count. */
export class MeetingStatsUnavailable extends Error {}

/**
 * Asks the recordings service (`seriesStats`), which owns the meetings, for the
 * finished-meeting count and newest recordedAt of each series: one request per response.
 */
export class RecordingsStatsClient implements MeetingStatsSource {
  constructor(
    private readonly nc: NatsConnection,
    private readonly logger: Logger,
    private readonly timeoutMs = SERIES_STATS_TIMEOUT_MS,
  ) {}

  async statsOf(seriesIds: string[]): Promise<Map<string, MeetingStats>> {
    const ids = [...new Set(seriesIds)];
    const out = new Map<string, MeetingStats>();
    for (let i = 0; i < ids.length; i += MAX_IDS_PER_REQUEST) {
      const chunk = ids.slice(i, i + MAX_IDS_PER_REQUEST);
      let answer: SeriesStatsReply;
      try {
        answer = await request(this.nc, BUS.seriesStats, { seriesIds: chunk }, { timeoutMs: this.timeoutMs });
      } catch (err) {
        this.logger.warn(
          { err, seriesCount: chunk.length },
          'the meeting counts did not come; the series answer fails',
        );
        throw new MeetingStatsUnavailable('meeting counts are unavailable');
      }
      for (const id of chunk) {
        const s = answer.stats[id];
        out.set(
          id,
          s
            ? {
                meetingCount: s.meetingCount,
                lastRecordedAt: s.lastRecordedAt === null ? null : new Date(s.lastRecordedAt),
              }
            : { meetingCount: 0, lastRecordedAt: null },
        );
      }
    }
    return out;
  }

  /**
   * Meetings keep a copy of their series' name and title settings; a change reaches them here.
   * Unanswered, it is logged and the copies stay as they were until the next change.
   */
  async seriesChanged(s: SeriesChange): Promise<void> {
    try {
      await request(this.nc, BUS.seriesChanged, s, { timeoutMs: this.timeoutMs });
    } catch (err) {
      this.logger?.warn({ err: String(err), seriesId: s.seriesId }, 'recordings did not take the series change');
    }
  }

  /** A series is being deleted: its meetings move out of it. Unanswered, it throws (the deletion is undone). */
  async seriesDeleted(seriesId: string): Promise<void> {
    await request(this.nc, BUS.seriesDeleted, { seriesId }, { timeoutMs: 10_000 });
  }
}
