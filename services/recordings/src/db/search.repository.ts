import { sql, type SelectQueryBuilder } from 'kysely';
import type { RecordingKind } from '@mm/contract';
import { LISTED_COLUMNS, type Database, type ListedRecording } from './schema';
import type { Db } from './recordings.repository';

/** A matching meeting with its search text, which tells the turn of its snippet. */
export type SearchRow = ListedRecording & { searchText: string | null; searchTurns: number | null };

/** Which meetings a search looks at: an account's, or a series'; READY and not deleted. */
export interface SearchScope {
  accountId: string;
  seriesId?: string;
  kind?: RecordingKind;
  from?: string;
  to?: string;
}

/** What a page's snippets are cut from: the digest and (when known) the one turn holding a word. */
export interface SnippetSource {
  id: string;
  title: string | null;
  language: string | null;
  sections: unknown;
  turn: string | null;
  /** Where that turn starts, ms from the beginning (null with no turn). */
  turnMs: number | null;
}

/** Newest meetings matched one by one before the trigram index is asked (see matching). */
const WINDOW = 400;
const escapeLike = (w: string) => w.replace(/[\\%_]/g, (c) => `\\${c}`);

/** The text search's reads (recording_search_order and recording_search_trgm). */
export class SearchRepository {
  /**
   * The first `n` meetings holding every word, newest first by recordedAt, in two steps so that
   * both common and rare words stay cheap: the newest WINDOW meetings in scope are read by the
   * ordered index and matched one by one (a common word fills the page there); only when they do
   * not fill it, the older ones are found by the trigram index, which a rare word needs. The
   * planner cannot tell the two apart for a given account, so the service does.
   */
  async matching(
    db: Db,
    q: SearchScope,
    words: string[],
    after: { createdAt: Date; id: string } | null,
    n: number,
  ): Promise<SearchRow[]> {
    const scope = <T extends SelectQueryBuilder<Database, 'recording', object>>(sel: T): T => {
      let s = sel.where('status', '=', 'READY').where('deletedAt', 'is', null);
      s = q.seriesId !== undefined ? s.where('seriesId', '=', q.seriesId) : s.where('accountId', '=', q.accountId);
      if (q.kind) s = s.where('kind', '=', q.kind);
      if (q.from) s = s.where('recordedAt', '>=', new Date(q.from));
      if (q.to) s = s.where('recordedAt', '<=', new Date(q.to));
      // A row comparison, so the keyset position bounds the ordered index (recording_search_order).
      if (after) s = s.where(sql<boolean>`(recorded_at, id) < (${after.createdAt}, ${after.id})`);
      return s.orderBy('recordedAt', 'desc').orderBy('id', 'desc') as T;
    };
    const likes = words.map((w) => `%${escapeLike(w)}%`);
    const columns = [...LISTED_COLUMNS, 'searchText', 'searchTurns'] as const;
    const newest = scope(db.selectFrom('recording').select(columns)).limit(WINDOW);
    let first = db.selectFrom(newest.as('w')).select(columns);
    for (const l of likes) first = first.where('searchText', 'like', l);
    const found = await first.orderBy('recordedAt', 'desc').orderBy('id', 'desc').limit(n).execute();
    if (found.length >= n) return found;
    // Older than the window's last meeting; no row when the window held every meeting in scope.
    const edge = scope(db.selectFrom('recording').select(['recordedAt', 'id']))
      .offset(WINDOW - 1)
      .limit(1);
    let rest = scope(db.selectFrom('recording').select(columns)).where(sql<boolean>`(recorded_at, id) < (${edge})`);
    for (const l of likes) rest = rest.where('searchText', 'like', l);
    return [...found, ...(await rest.limit(n - found.length).execute())];
  }

  /**
   * For each meeting of a page, its digest and the text of turn `turns[i]` (null: none), read
   * inside Postgres in one round trip.
   */
  async snippetSources(db: Db, ids: string[], turns: (number | null)[]): Promise<Map<string, SnippetSource>> {
    const rows = await sql<SnippetSource>`
      select x.id, d.title, d.language, d.sections, t.segments -> x.turn ->> 'text' as turn,
        (t.segments -> x.turn ->> 'startMs')::bigint::float8 as "turnMs"
      from unnest(${ids}::text[], ${turns}::int[]) as x(id, turn)
      left join digest d on d.recording_id = x.id
      left join transcript t on x.turn is not null and t.recording_id = x.id`.execute(db);
    return new Map(rows.rows.map((d) => [d.id, d]));
  }
}
