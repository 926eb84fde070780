import type { Generated, Insertable, Selectable } from 'kysely';

/** One stored meeting event (a copy of a `recordings.recording.*` fact). */
export interface EventTable {
  id: string;
  /** bigserial: pg returns it as a string. */
  seq: Generated<string>;
  accountId: string;
  tokenId: string | null;
  recordingId: string;
  seriesId: string | null;
  type: string;
  occurredAt: Date;
  data: unknown;
  storedAt: Generated<Date>;
  /** Its place among its meeting's events (recordings stamps it); null for events from before. */
  meetingSeq: number | null;
}

/** Per meeting, the highest `meetingSeq` stored: the next event of the meeting may follow it. */
export interface MeetingOrderTable {
  recordingId: string;
  lastSeq: number;
}

export type EventRow = Selectable<EventTable>;
/** What a feed page reads of an event: its view (toEventView) and its place (seq, for the cursor). */
export const FEED_COLUMNS = [
  'id',
  'seq',
  'type',
  'recordingId',
  'seriesId',
  'occurredAt',
  'data',
] as const satisfies readonly (keyof EventRow)[];
export type FeedRow = Pick<EventRow, (typeof FEED_COLUMNS)[number]>;
export type NewEvent = Insertable<EventTable>;

export interface Database {
  event: EventTable;
  meetingOrder: MeetingOrderTable;
}
