/**
 * The whole compatibility check: the committed snapshots of the public API and the bus table
 * against what the code generates now. Pure: the caller reads and writes the files.
 */
import { busBreaks, type BusSnapshot } from './bus-breaks';
import { openapiBreaks } from './openapi-breaks';
import { isStatedBound } from './stated-bounds';
import type { Json } from './schema-breaks';

/** What is snapshotted: `libs/contract/snapshots/openapi.json` and `bus.json`. */
export interface ContractSnapshots {
  openapi: Json;
  /** Absent while the bus table has no snapshot. */
  bus?: BusSnapshot;
}

export interface CompatibilityReport {
  /** What would break a consumer of the committed snapshots; any one refuses the change. */
  breaks: string[];
  /** Parts not checked and why, for the console. */
  notes: string[];
}

/**
 * Compares the committed snapshots with the current ones. The bus part is skipped, with a note,
 * while no bus snapshot is committed; a committed one with no current bus table is a break.
 */
export function contractBreaks(committed: Partial<ContractSnapshots>, current: ContractSnapshots): CompatibilityReport {
  const breaks: string[] = [];
  const notes: string[] = [];
  if (committed.openapi) {
    // Request bounds the contract states (stated-bounds.ts) are accepted by name; nothing else is.
    breaks.push(
      ...openapiBreaks(committed.openapi, current.openapi)
        .filter((b) => !isStatedBound(b))
        .map((b) => `openapi: ${b}`),
    );
  } else notes.push('openapi.json has no snapshot yet: the public API is not checked');
  if (!committed.bus) notes.push('bus.json has no snapshot yet: the bus table is not checked');
  else if (!current.bus) breaks.push('bus: a bus snapshot is committed but the current bus table was not given');
  else breaks.push(...busBreaks(committed.bus, current.bus).map((b) => `bus: ${b}`));
  return { breaks, notes };
}
