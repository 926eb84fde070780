/**
 * What a new bus snapshot breaks for a service built against the old one. Services are deployed
 * one at a time, so a consumer of any listed version of a subject may still be running: every
 * version stays as it was until it is retired on purpose. Pure: no I/O.
 */
import type { JsonSchema } from '../schema-helpers';
import { schemaBreaks } from './schema-breaks';

/** One version of a subject: what is sent, and for a request what is answered. */
export interface BusVersionSnapshot {
  payload: JsonSchema;
  reply?: JsonSchema;
}

/** One subject of the bus table as snapshotted in `libs/contract/snapshots/bus.json`. */
export interface BusSubjectSnapshot {
  kind: 'request' | 'fact' | 'job';
  /** The one service that serves or publishes it. */
  owner: string;
  /** Every version still served or published, by version name. */
  versions: Record<string, BusVersionSnapshot>;
  /** Versions taken out on purpose, once no deployed service sends them any more. */
  retired?: string[];
}

/** The snapshot of the bus table; each schema is its own document for `$ref`s. */
export interface BusSnapshot {
  subjects: Record<string, BusSubjectSnapshot>;
}

function versionBreaks(where: string, before: BusVersionSnapshot, after: BusVersionSnapshot): string[] {
  const out = schemaBreaks(before.payload, after.payload, `${where} payload`);
  if (before.reply !== undefined) {
    if (after.reply === undefined) out.push(`${where} reply: removed`);
    else out.push(...schemaBreaks(before.reply, after.reply, `${where} reply`));
  }
  return out;
}

/**
 * Lists what `newTable` breaks for services built against `oldTable`, one human-readable line per
 * break; empty when compatible. A removed subject, a changed kind, a version gone without being
 * listed in `retired`, and any schema break of a version's payload or reply are breaks, even when
 * a newer version exists: a breaking change goes in a new version kept beside the old one.
 */
export function busBreaks(oldTable: BusSnapshot, newTable: BusSnapshot): string[] {
  const out: string[] = [];
  for (const [subject, before] of Object.entries(oldTable.subjects)) {
    const after = newTable.subjects[subject];
    if (!after) {
      out.push(`${subject}: subject removed`);
      continue;
    }
    if (after.kind !== before.kind) out.push(`${subject}: kind changed from ${before.kind} to ${after.kind}`);
    const retired = new Set(after.retired ?? []);
    for (const [version, schemas] of Object.entries(before.versions)) {
      const now = after.versions[version];
      if (now) out.push(...versionBreaks(`${subject} version ${version}`, schemas, now));
      else if (!retired.has(version)) out.push(`${subject} version ${version}: removed but not listed in retired`);
    }
  }
  return out;
}
