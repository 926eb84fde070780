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
}

export type EventRow = Selectable<EventTable>;
export type NewEvent = Insertable<EventTable>;

export interface Database {
  event: EventTable;
}
