import type { ObjectStore } from '@mm/store';
import type { AsrPiece, PieceCheckpoint } from '../engines/asr';

/**
 * Finished pieces of a remote transcription kept in the object store under `prefix` (one small
 * JSON each), so a retry of the meeting, on any replica, sends only the pieces still missing.
 * A piece that cannot be read back is simply sent again.
 */
export function storeCheckpoint(store: ObjectStore, prefix: string): PieceCheckpoint {
  return {
    get: (key) => store.getJson<AsrPiece>(`${prefix}/${key}.json`).catch(() => null),
    put: (key, value) => store.putJson(`${prefix}/${key}.json`, value),
  };
}
