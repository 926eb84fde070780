import type { BusSnapshot } from '../compat';
import { BUS_ENTRIES } from './bus.table';

/**
 * The bus table as `libs/contract/snapshots/bus.json` keeps it: per subject its kind, owner,
 * users and the schemas of every version still listed, and the versions retired. The
 * compatibility check compares the next table with it.
 */
export function busSnapshot(): BusSnapshot {
  const subjects: BusSnapshot['subjects'] = {};
  for (const e of BUS_ENTRIES) {
    subjects[e.subject] = {
      kind: e.kind,
      owner: e.owner,
      versions: Object.fromEntries(
        Object.entries(e.versions).map(([v, s]) => [
          v,
          s.reply ? { payload: s.payload, reply: s.reply } : { payload: s.payload },
        ]),
      ),
      ...(e.retired?.length ? { retired: e.retired.map(String) } : {}),
    };
  }
  return { subjects };
}
