/**
 * List cursors: `<createdAt in ms>.<recording id>`, the position right after the last meeting of
 * a page (the contract's format: 1 to 15 digits, a dot, 1 to 48 of letters, digits, _ or -).
 */
const CURSOR = /^(\d{1,15})\.([A-Za-z0-9_-]{1,48})$/;

export interface ListPosition {
  createdAt: Date;
  id: string;
}

export function encodeCursor(p: ListPosition): string {
  return `${p.createdAt.getTime()}.${p.id}`;
}

/**
 * The latest instant a position may name: 9999-12-31T23:59:59.999Z, the last a timestamp is
 * written in four-digit years. Fifteen digits reach the year 33658; such a position is later than
 * every meeting, as this one is, and reads the same page.
 */
const LATEST_POSITION_MS = Date.UTC(9999, 11, 31, 23, 59, 59, 999);

/** Null for a value that is not a cursor of the current format (400 VALIDATION). */
export function decodeCursor(value: string): ListPosition | null {
  const m = CURSOR.exec(value);
  if (!m) return null;
  return { createdAt: new Date(Math.min(Number(m[1]), LATEST_POSITION_MS)), id: m[2] };
}
