import type { Kysely } from 'kysely';
import type { SearchRecordingsInput } from '@mm/contract';
import { ApiError, type Principal } from '@mm/http';
import { normalizeForSearch, searchWords } from '@mm/text';
import type { Database } from '../db/schema';
import type { SearchRepository, SearchRow } from '../db/search.repository';
import type { TranscriptRepository } from '../db/transcripts.repository';
import { decodeCursor, encodeCursor } from '../domain/cursor';
import type { MeetingAccess } from './access';
import type { Views } from './views';
import { digestText } from '../domain/digest-text';

export type SearchQuery = SearchRecordingsInput['query'];

const SNIPPET = 200;
/** How far in from a snippet's edge a cut word may be trimmed to the nearest space. */
const WORD_EDGE = 30;

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
  let start = Math.max(0, Math.min(text.length - SNIPPET, center - SNIPPET / 2));
  let end = start + SNIPPET;
  // Whole words at both ends: a window cut inside a word begins after (or ends before) the nearest
  // space within WORD_EDGE characters, which leaves the match well inside it.
  if (start > 0 && /\S/.test(text[start - 1])) {
    const space = text.slice(start, start + WORD_EDGE).search(/\s/);
    if (space >= 0) start += space + 1;
  }
  if (end < text.length && /\S/.test(text[end])) {
    const space = text.slice(end - WORD_EDGE, end).search(/\s\S*$/);
    if (space >= 0) end += space - WORD_EDGE;
  }
  return text.slice(start, end).trim();
}

/** GET /recordings/search: every word in title, transcript or digest, newest first by recordedAt. */
export class SearchService {
  constructor(
    private readonly deps: {
      db: Kysely<Database>;
      search: SearchRepository;
      transcripts: TranscriptRepository;
      access: MeetingAccess;
      views: Views;
    },
  ) {}

  /**
   * `moments`: each item also says where its snippet was said (`atMs`, the start of the turn it was
   * cut from; null when it came from the digest or the title), for the app's search that opens the
   * meeting at that moment. The public answer has no such field.
   */
  async search(p: Principal, q: SearchQuery, opts: { moments?: boolean } = {}) {
    const words = searchWords(q.q);
    if (words.length === 0) throw new ApiError('VALIDATION', 'q has no word to search for');
    const after = q.cursor === undefined ? null : decodeCursor(q.cursor);
    if (q.cursor !== undefined && !after) throw new ApiError('VALIDATION', 'cursor is not a cursor of this search');
    // The schema's date-time admits forms no Date reads (a leap second, 23:59:60; an offset of
    // hours alone, +03): refused by name rather than failing when the window is written.
    for (const [name, value] of [
      ['from', q.from],
      ['to', q.to],
    ] as const)
      if (value !== undefined && Number.isNaN(Date.parse(value)))
        throw new ApiError('VALIDATION', `${name} must be ISO 8601 with an offset, naming a real day and time`);
    if (q.seriesId !== undefined) await this.deps.access.reachSeries(p, q.seriesId);
    const limit = q.limit ?? 20;
    const rows = await this.deps.search.matching(
      this.deps.db,
      { accountId: p.accountId, seriesId: q.seriesId, kind: q.kind, from: q.from, to: q.to },
      words,
      after,
      limit + 1,
    );
    const page = rows.slice(0, limit);
    const items = await this.present(p, page, words, opts.moments === true);
    const last = page[page.length - 1];
    return {
      items,
      nextCursor: rows.length > limit ? encodeCursor({ createdAt: last.recordedAt, id: last.id }) : null,
    };
  }

  /**
   * The page's items with their snippets. A meeting's search text tells by its lines which part
   * first holds a query word, so only that one turn of each transcript was read, inside Postgres,
   * with the digest in the same statement (SearchRow); rows stored before the lines existed
   * (searchTurns null), or a turn that does not hold the word after all, read the transcript whole.
   */
  private async present(p: Principal, page: SearchRow[], words: string[], moments: boolean) {
    if (page.length === 0) return [];
    const snippets = new Map<string, string | null>();
    const at = new Map<string, number>();
    const whole: string[] = [];
    for (const r of page) {
      const isTurn = r.searchTurns !== null && r.part !== null && r.part >= 0 && r.part < r.searchTurns;
      if (r.searchTurns === null) whole.push(r.id);
      else if (!isTurn)
        snippets.set(r.id, snippetOf(digestText(r.sections), words)); // no turn holds a word
      else {
        const snippet = r.turn === null ? null : snippetOf(r.turn, words);
        if (snippet === null) whole.push(r.id);
        else {
          snippets.set(r.id, snippet);
          if (r.turnMs !== null) at.set(r.id, Number(r.turnMs));
        }
      }
    }
    if (whole.length > 0) {
      const byId = new Map(page.map((r) => [r.id, r]));
      const tBy = await this.deps.transcripts.turns(this.deps.db, whole);
      for (const id of whole) {
        let snippet: string | null = null;
        for (const seg of tBy.get(id) ?? []) {
          snippet = snippetOf(seg.text, words);
          if (snippet) {
            if (typeof seg.startMs === 'number') at.set(id, seg.startMs);
            break;
          }
        }
        snippets.set(id, snippet ?? snippetOf(digestText(byId.get(id)?.sections), words));
      }
    }
    return page.map((r) => {
      const head = r.digestLanguage !== null ? { title: r.digestTitle, language: r.digestLanguage } : null;
      const item = { ...this.deps.views.listItem(r, head, p.features.series), snippet: snippets.get(r.id) ?? null };
      return moments ? { ...item, atMs: at.get(r.id) ?? null } : item;
    });
  }
}
