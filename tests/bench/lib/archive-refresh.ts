/**
 * An archive loaded before the search text had one line per part (recordings migration 0007)
 * still holds whole texts with search_turns null. Search stays exact on them, but a bench of
 * today's write path needs today's rows: they are rewritten by the write path's own
 * refreshSearchText, a few transactions at a time, instead of loading the archive again.
 */
import { openDatabase } from '@mm/db';
import { refreshSearchText } from '../../../services/recordings/src/services/search-text';
import type { Database } from '../../../services/recordings/src/db/schema';

const WORKERS = 3;
const PER_TRANSACTION = 50;

/** Rewrites the search text of every archive row (id starting with `prefix`) stored without lines. */
export async function refreshOldSearchTexts(url: string, prefix: string, log: (m: string) => void): Promise<number> {
  const { db, pool } = openDatabase<Database>({ url, schema: 'recordings', poolSize: WORKERS });
  try {
    const ids = (await db.selectFrom('recording').select('id').where('id', 'like', `${prefix}%`).where('searchTurns', 'is', null).orderBy('id').execute()).map((r) => r.id);
    if (ids.length === 0) return 0;
    log(`archive: ${ids.length.toLocaleString('en-US')} meetings stored before search_turns; rewriting them by refreshSearchText`);
    const started = performance.now();
    let next = 0;
    let done = 0;
    const worker = async () => {
      while (next < ids.length) {
        const chunk = ids.slice(next, next + PER_TRANSACTION);
        next += chunk.length;
        await db.transaction().execute(async (trx) => {
          for (const id of chunk) await refreshSearchText(trx, id);
        });
        done += chunk.length;
        if (done % 10_000 < PER_TRANSACTION) log(`archive: ${done.toLocaleString('en-US')} rewritten (${((performance.now() - started) / 1000).toFixed(0)} s)`);
      }
    };
    await Promise.all(Array.from({ length: WORKERS }, worker));
    return ids.length;
  } finally {
    await db.destroy().catch(() => pool.end());
  }
}
