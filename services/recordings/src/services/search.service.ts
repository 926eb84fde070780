import { sql, type Kysely } from 'kysely';
import { ApiError, type Principal } from '@mm/http';
import { normalizeForSearch, searchWords } from '@mm/text';
import type { Database, ListedRecording } from '../db/schema';
import { LISTED_COLUMNS } from '../db/recording.repository';
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
const escapeLike = (w: string) => w.replace(/[\\%_]/g, (c) => `\\${c}`);

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
    let sel = this.deps.db.selectFrom('recording').select(LISTED_COLUMNS).where('status', '=', 'READY').where('deletedAt', 'is', null);
    sel = q.seriesId !== undefined ? sel.where('seriesId', '=', q.seriesId) : sel.where('accountId', '=', p.accountId);
    if (q.kind) sel = sel.where('kind', '=', q.kind);
    if (q.from) sel = sel.where('recordedAt', '>=', new Date(q.from));
    if (q.to) sel = sel.where('recordedAt', '<=', new Date(q.to));
    for (const w of words) sel = sel.where('searchText', 'like', `%${escapeLike(w)}%`);
    // A row comparison, so the keyset position bounds the ordered index (recording_search_order).
    if (after) sel = sel.where(sql<boolean>`(recorded_at, id) < (${after.createdAt}, ${after.id})`);
    const rows = await sel.orderBy('recordedAt', 'desc').orderBy('id', 'desc').limit(limit + 1).execute();
    const page = rows.slice(0, limit);
    const items = await this.present(p, page, words);
    const last = page[page.length - 1];
    return { items, nextCursor: rows.length > limit ? encodeCursor({ createdAt: last.recordedAt, id: last.id }) : null };
  }

  private async present(p: Principal, page: ListedRecording[], words: string[]) {
    if (page.length === 0) return [];
    const ids = page.map((r) => r.id);
    const [transcripts, digests] = await Promise.all([
      this.deps.db.selectFrom('transcript').select(['recordingId', 'segments']).where('recordingId', 'in', ids).execute(),
      this.deps.db.selectFrom('digest').select(['recordingId', 'title', 'language', 'sections']).where('recordingId', 'in', ids).execute(),
    ]);
    const tBy = new Map(transcripts.map((t) => [t.recordingId, t.segments as { text: string }[]]));
    const dBy = new Map(digests.map((d) => [d.recordingId, d]));
    return page.map((r) => {
      const d = dBy.get(r.id);
      let snippet: string | null = null;
      for (const seg of tBy.get(r.id) ?? []) {
        snippet = snippetOf(seg.text, words);
        if (snippet) break;
      }
      snippet ??= snippetOf(digestText(d?.sections), words);
      return { ...this.deps.views.listItem(r, d ? { title: d.title, language: d.language } : null, p.features.series), snippet };
    });
  }
}
