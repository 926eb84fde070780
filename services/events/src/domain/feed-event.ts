import { EVENT_TYPES, type ListEventsOutput, type RecordingEvent } from '@mm/contract';
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

/** The contract's Event, as listEvents answers it. */
export type EventView = ListEventsOutput['events'][number];

/** The contract's Event: never the account or token; seriesId null while series are off. */
export function toEventView(row: Omit<FeedRow, 'seq'>, seriesOn: boolean): EventView {
  const type = EVENT_TYPES.find((t) => t === row.type);
  // Rows are written only from events checked against the bus table (toNewEvent).
  if (!type) throw new Error(`event ${row.id} has a type the contract does not know: ${row.type}`);
  return {
    id: row.id,
    type,
    recordingId: row.recordingId,
    seriesId: seriesOn ? row.seriesId : null,
    occurredAt: row.occurredAt.toISOString(),
    // The JSON column holds the event's data as the bus table checked it (toNewEvent).
    data: row.data as EventView['data'],
  };
}
