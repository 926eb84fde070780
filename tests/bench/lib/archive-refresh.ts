/**
 * An archive loaded before the search text had one line per part (recordings migration 0007)
 * still holds whole texts with search_turns null. Search stays exact on them, but a bench of
 * today's write path needs today's rows where it measures: the meetings of the measured accounts
 * are rewritten by the write path's own refreshSearchText instead of loading the archive again
 * (the others keep whole texts, as rows written before 0007 do in production; rewriting all
 * 100,000 takes ~20 minutes on the shared machine, a new load writes them all in today's form).
 */
import { openDatabase } from '@mm/db';
import { refreshSearchText } from '../../../services/recordings/src/db/recordings.repository';
import type { Database } from '../../../services/recordings/src/db/schema';

const WORKERS = 3;
const PER_TRANSACTION = 50;

/** Rewrites the search texts stored without lines of these accounts' archive rows (ids starting with `prefix`). */
export async function refreshOldSearchTexts(
  url: string,
  prefix: string,
  accounts: string[],
  log: (m: string) => void,
): Promise<number> {
  const { db, pool } = openDatabase<Database>({ url, schema: 'recordings', poolSize: WORKERS });
  try {
    const ids = (
      await db
        .selectFrom('recording')
        .select('id')
        .where('accountId', 'in', accounts)
        .where('id', 'like', `${prefix}%`)
        .where('searchTurns', 'is', null)
        .orderBy('id')
        .execute()
    ).map((r) => r.id);
    if (ids.length === 0) return 0;
    const n = ids.length.toLocaleString('en-US');
    log(
      `archive: ${n} meetings of the measured accounts stored before search_turns; rewriting them by refreshSearchText`,
    );
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
        const seconds = ((performance.now() - started) / 1000).toFixed(0);
        if (done % 1_000 < PER_TRANSACTION) log(`archive: ${done.toLocaleString('en-US')} rewritten (${seconds} s)`);
      }
    };
    await Promise.all(Array.from({ length: WORKERS }, worker));
    return ids.length;
  } finally {
    await db.destroy().catch(() => pool.end());
  }
}
