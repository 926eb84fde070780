import type { RecordingEvent } from '@mm/contract';
import type { FeedRow, NewEvent } from '../db/schema';

/** Events are served for 30 days; retention deletes them a day later (a reader mid-page keeps its page). */
export const KEEP_DAYS = 30;
export const DELETE_AFTER_DAYS = 31;
export const DAY_MS = 24 * 3600 * 1000;

/** The row to store for a meeting event (already checked against the bus table). */
export function toNewEvent(e: RecordingEvent): NewEvent {
  return {
    id: e.id,
    type: e.type,
    recordingId: e.recordingId,
    accountId: e.accountId,
    tokenId: e.tokenId,
    seriesId: e.seriesId,
    occurredAt: new Date(e.occurredAt),
    data: JSON.stringify(e.data),
    meetingSeq: e.meetingSeq ?? null,
  };
}

/** The contract's Event: never the account or token; seriesId null while series are off. */
export function toEventView(row: Omit<FeedRow, 'seq'>, seriesOn: boolean) {
  return {
    id: row.id,
    type: row.type,
    recordingId: row.recordingId,
    seriesId: seriesOn ? row.seriesId : null,
    occurredAt: row.occurredAt.toISOString(),
    data: row.data as Record<string, unknown>,
  };
}
