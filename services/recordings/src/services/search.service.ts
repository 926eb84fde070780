import { sql, type Kysely, type SelectQueryBuilder } from 'kysely';
import { ApiError, type Principal } from '@mm/http';
import { firstPartHolding, normalizeForSearch, searchWords } from '@mm/text';
import { LISTED_COLUMNS, type Database, type ListedRecording } from '../db/schema';
import { decodeCursor, encodeCursor } from '../domain/cursor';
import type { MeetingAccess } from './access';
import type { Views } from './views';
import { digestText } from './search-text';

export interface SearchQuery {
  q: string;
  seriesId?: string;
  kind?: string;
  from?: string;
  to?: string;
  limit?: number;
  cursor?: string;
}

const SNIPPET = 200;
/** Newest meetings matched one by one before the trigram index is asked (see matching). */
const WINDOW = 400;
const escapeLike = (w: string) => w.replace(/[\\%_]/g, (c) => `\\${c}`);
/** A matching meeting with its search text, which tells the turn of its snippet. */
type SearchRow = ListedRecording & { searchText: string | null; searchTurns: number | null };

/**
 * Up to 200 characters of `text` around the first place one of `words` appears, or null. The
 * match is found on normalized text and mapped back by proportion (normalization changes length
 * only by dropped marks, so the window still holds the match).
 */
export function snippetOf(text: string, words: string[]): string | null {
  const norm = normalizeForSearch(text);
  const at = Math.min(...words.map((w) => norm.indexOf(w)).filter((i) => i >= 0));
  if (!Number.isFinite(at)) return null;
  if (text.length <= SNIPPET) return text;
  const center = Math.round((at / Math.max(1, norm.length)) * text.length);
  const start = Math.max(0, Math.min(text.length - SNIPPET, center - SNIPPET / 2));
  return text.slice(start, start + SNIPPET);
}

/** GET /recordings/search: every word in title, transcript or digest, newest first by recordedAt. */
export class SearchService {
  constructor(private readonly deps: { db: Kysely<Database>; access: MeetingAccess; views: Views }) {}

  async search(p: Principal, q: SearchQuery) {
    const words = searchWords(q.q);
    if (words.length === 0) throw new ApiError('VALIDATION', 'q has no word to search for');
    const after = q.cursor === undefined ? null : decodeCursor(q.cursor);
    if (q.cursor !== undefined && !after) throw new ApiError('VALIDATION', 'cursor is not a cursor of this search');
    if (q.seriesId !== undefined && !(await this.deps.access.seriesAccess(p, q.seriesId))) throw new ApiError('NOT_FOUND', 'No series the token can reach has that id.');
    const limit = q.limit ?? 20;
    const rows = await this.matching(p, q, words, after, limit + 1);
    const page = rows.slice(0, limit);
    const items = await this.present(p, page, words);
    const last = page[page.length - 1];
    return { items, nextCursor: rows.length > limit ? encodeCursor({ createdAt: last.recordedAt, id: last.id }) : null };
  }

  /**
   * The first `n` matching meetings, newest first by recordedAt, in two steps so that both common
   * and rare words stay cheap: the newest WINDOW meetings in scope are read by the ordered index and
   * matched one by one (a common word fills the page there); only when they do not fill it, the
   * older ones are found by the trigram index (recording_search_trgm), which a rare word needs.
   * The planner cannot tell the two apart for a given account, so the service does. The search
   * text of the returned rows comes along: it tells the snippet's turn (present).
   */
  private async matching(p: Principal, q: SearchQuery, words: string[], after: { createdAt: Date; id: string } | null, n: number): Promise<SearchRow[]> {
    const db = this.deps.db;
    const scope = <T extends SelectQueryBuilder<Database, 'recording', object>>(sel: T): T => {
      let s = sel.where('status', '=', 'READY').where('deletedAt', 'is', null);
      s = q.seriesId !== undefined ? s.where('seriesId', '=', q.seriesId) : s.where('accountId', '=', p.accountId);
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
    const edge = scope(db.selectFrom('recording').select(['recordedAt', 'id'])).offset(WINDOW - 1).limit(1);
    let rest = scope(db.selectFrom('recording').select(columns)).where(sql<boolean>`(recorded_at, id) < (${edge})`);
    for (const l of likes) rest = rest.where('searchText', 'like', l);
    return [...found, ...(await rest.limit(n - found.length).execute())];
  }

  /**
   * The page's items with their snippets. A meeting's search text tells by its lines which part
   * first holds a query word (firstPartHolding), so only that one turn of each transcript is read,
   * inside Postgres, with the digests in the same round trip; rows stored before the lines existed
   * (searchTurns null), or a turn that does not hold the word after all, read the transcript whole.
   */
  private async present(p: Principal, page: SearchRow[], words: string[]) {
    if (page.length === 0) return [];
    const turnOf = (r: SearchRow): number | null => {
      if (r.searchText === null || r.searchTurns === null) return null;
      const part = firstPartHolding(r.searchText, words);
      return part >= 0 && part < r.searchTurns ? part : null;
    };
    const rows = await sql<{ id: string; title: string | null; language: string | null; sections: unknown; turn: string | null }>`
      select x.id, d.title, d.language, d.sections, t.segments -> x.turn ->> 'text' as turn
      from unnest(${page.map((r) => r.id)}::text[], ${page.map(turnOf)}::int[]) as x(id, turn)
      left join digest d on d.recording_id = x.id
      left join transcript t on x.turn is not null and t.recording_id = x.id`.execute(this.deps.db);
    const dBy = new Map(rows.rows.map((d) => [d.id, d]));
    const snippets = new Map<string, string | null>();
    const whole: string[] = [];
    for (const r of page) {
      const d = dBy.get(r.id);
      const turn = turnOf(r);
      if (r.searchText === null || r.searchTurns === null) whole.push(r.id);
      else if (turn === null) snippets.set(r.id, snippetOf(digestText(d?.sections), words)); // no turn holds a word
      else {
        const snippet = d?.turn == null ? null : snippetOf(d.turn, words);
        if (snippet === null) whole.push(r.id);
        else snippets.set(r.id, snippet);
      }
    }
    if (whole.length > 0) {
      const transcripts = await this.deps.db
        .selectFrom('transcript')
        .select(['recordingId', 'segments'])
        .where('recordingId', 'in', whole)
        .execute();
      const tBy = new Map(transcripts.map((t) => [t.recordingId, t.segments as { text: string }[]]));
      for (const id of whole) {
        let snippet: string | null = null;
        for (const seg of tBy.get(id) ?? []) {
          snippet = snippetOf(seg.text, words);
          if (snippet) break;
        }
        snippets.set(id, snippet ?? snippetOf(digestText(dBy.get(id)?.sections), words));
      }
    }
    return page.map((r) => {
      const d = dBy.get(r.id);
      const head = d && d.language !== null ? { title: d.title, language: d.language } : null;
      return { ...this.deps.views.listItem(r, head, p.features.series), snippet: snippets.get(r.id) ?? null };
    });
  }
}
