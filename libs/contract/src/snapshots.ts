/**
 * The committed snapshots of the contract (`libs/contract/snapshots/`) and the current ones, for
 * `pnpm contract:snapshot` and the compatibility test. Not exported from the package index: it
 * reads files, and services have no use for it.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { ContractSnapshots } from './compat';
import { buildOpenApi } from './openapi';
import { busSnapshot } from './bus/bus.snapshot';

export const SNAPSHOT_DIR = path.resolve(__dirname, '..', 'snapshots');

/** The server URL written in the snapshot; not compared, only fixed so the file is stable. */
const SNAPSHOT_SERVER_URL = 'http://127.0.0.1:8080/api/v1';

const FILES = { openapi: 'openapi.json', bus: 'bus.json' } as const;

/** The contract as the code generates it now. */
export function currentSnapshots(): ContractSnapshots {
  return { openapi: buildOpenApi({ serverUrl: SNAPSHOT_SERVER_URL }), bus: busSnapshot() };
}

/** The committed snapshots; a file that does not exist yet is left out. */
export function readSnapshots(dir: string = SNAPSHOT_DIR): Partial<ContractSnapshots> {
  const out: Partial<ContractSnapshots> = {};
  for (const [part, file] of Object.entries(FILES) as [keyof typeof FILES, string][]) {
    const at = path.join(dir, file);
    if (existsSync(at)) out[part] = JSON.parse(readFileSync(at, 'utf8'));
  }
  return out;
}

/** Writes every part that `snapshots` holds; returns the files written. */
export function writeSnapshots(snapshots: ContractSnapshots, dir: string = SNAPSHOT_DIR): string[] {
  mkdirSync(dir, { recursive: true });
  const written: string[] = [];
  for (const [part, file] of Object.entries(FILES) as [keyof typeof FILES, string][]) {
    if (snapshots[part] === undefined) continue;
    writeFileSync(path.join(dir, file), `${JSON.stringify(snapshots[part], null, 2)}\n`);
    written.push(path.join(dir, file));
  }
  return written;
}
