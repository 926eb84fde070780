import type { NatsConnection } from 'nats';
import type { Logger } from 'pino';
import { request } from '@mm/bus';
import { TurnBatcher } from '@mm/platform';
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
 * finished-meeting count and newest recordedAt of each series. The series asked for in one turn
 * of the event loop, by every response being built, go in one request (`TurnBatcher`): under load
 * the series reads share their round trips, and each is still counted after it was asked for.
 */
export class RecordingsStatsClient implements MeetingStatsSource {
  private readonly batcher: TurnBatcher<string, MeetingStats>;

  constructor(
    private readonly nc: NatsConnection,
    private readonly logger: Logger,
    private readonly timeoutMs = SERIES_STATS_TIMEOUT_MS,
  ) {
    this.batcher = new TurnBatcher((ids) => this.ask(ids), MAX_IDS_PER_REQUEST);
  }

  async statsOf(seriesIds: string[]): Promise<Map<string, MeetingStats>> {
    const ids = [...new Set(seriesIds)];
    const stats = await Promise.all(ids.map((id) => this.batcher.load(id)));
    return new Map(ids.map((id, i) => [id, stats[i] ?? { meetingCount: 0, lastRecordedAt: null }]));
  }

  /** One request for these series (at most MAX_IDS_PER_REQUEST); a series the answer lacks has no finished meeting. */
  private async ask(ids: string[]): Promise<Map<string, MeetingStats>> {
    let answer: SeriesStatsReply;
    try {
      answer = await request(this.nc, BUS.seriesStats, { seriesIds: ids }, { timeoutMs: this.timeoutMs });
    } catch (err) {
      this.logger.warn({ err, seriesCount: ids.length }, 'the meeting counts did not come; the series answer fails');
      throw new MeetingStatsUnavailable('meeting counts are unavailable');
    }
    const out = new Map<string, MeetingStats>();
    for (const [id, s] of Object.entries(answer.stats))
      out.set(id, {
        meetingCount: s.meetingCount,
        lastRecordedAt: s.lastRecordedAt === null ? null : new Date(s.lastRecordedAt),
      });
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
