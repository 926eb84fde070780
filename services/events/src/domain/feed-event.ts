import { EVENT_TYPES } from '@mm/contract';
import type { EventRow, NewEvent } from '../db/schema';

/** Events are served for 30 days; retention deletes them a day later (a reader mid-page keeps its page). */
export const KEEP_DAYS = 30;
export const DELETE_AFTER_DAYS = 31;
export const DAY_MS = 24 * 3600 * 1000;

/** The event as the recordings outbox publishes it. */
export interface RecordingEventFact {
  id: string;
  type: string;
  recordingId: string;
  accountId: string;
  tokenId: string | null;
  seriesId: string | null;
  occurredAt: string;
  data: Record<string, unknown>;
}

const isStr = (v: unknown): v is string => typeof v === 'string' && v.length > 0;
const isStrOrNull = (v: unknown) => v === null || v === undefined || isStr(v);

/** The row to store for a fact, or null for a payload that is no meeting event (logged, acked). */
export function toNewEvent(payload: unknown): NewEvent | null {
  const f = payload as Partial<RecordingEventFact> | null;
  if (!f || typeof f !== 'object') return null;
  if (!isStr(f.id) || !isStr(f.recordingId) || !isStr(f.accountId) || !isStr(f.occurredAt)) return null;
  if (!isStr(f.type) || !(EVENT_TYPES as readonly string[]).includes(f.type)) return null;
  if (!isStrOrNull(f.tokenId) || !isStrOrNull(f.seriesId)) return null;
  if (!f.data || typeof f.data !== 'object' || Array.isArray(f.data)) return null;
  const occurredAt = new Date(f.occurredAt);
  if (Number.isNaN(occurredAt.getTime())) return null;
  return {
    id: f.id,
    type: f.type,
    recordingId: f.recordingId,
    accountId: f.accountId,
    tokenId: f.tokenId ?? null,
    seriesId: f.seriesId ?? null,
    occurredAt,
    data: JSON.stringify(f.data),
  };
}

/** The contract's Event: never the account or token; seriesId null while series are off. */
export function toEventView(row: EventRow, seriesOn: boolean) {
  return {
    id: row.id,
    type: row.type,
    recordingId: row.recordingId,
    seriesId: seriesOn ? row.seriesId : null,
    occurredAt: row.occurredAt.toISOString(),
    data: row.data as Record<string, unknown>,
  };
}
