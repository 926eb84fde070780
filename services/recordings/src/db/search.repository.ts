import { sql, type Kysely, type RawBuilder, type SelectQueryBuilder } from 'kysely';
import type { RecordingKind } from '@mm/contract';
import { LISTED_COLUMNS, READY, type Database, type ListedRecording } from './schema';
import { keyArray, preparedShapes } from '@mm/db';
import { TurnBatcher } from '@mm/platform';
import type { Db } from './recordings.repository';

/**
 * A matching meeting with what its snippet is cut from, read in the same statement: its digest, and
 * the text of the one turn that first holds a query word. `part` is the first line of the meeting's
 * search text holding one (lines below `searchTurns` are its turns, in order); `searchTurns` null:
 * a row stored before the lines existed, whose turn is not known.
 */
export type SearchRow = ListedRecording & {
  searchTurns: number | null;
  part: number | null;
  digestTitle: string | null;
  digestLanguage: string | null;
  sections: unknown;
  /** The text of turn `part`, when `part` is a turn. */
  turn: string | null;
  /** Where that turn starts, ms from the beginning (null with no turn). */
  turnMs: number | null;
};

/** Which meetings a search looks at: an account's, or a series'; READY and not deleted. */
export interface SearchScope {
  accountId: string;
  seriesId?: string;
  kind?: RecordingKind;
  from?: string;
  to?: string;
}

/** Newest meetings matched one by one before the trigram index is asked (see matching). */
export const SEARCH_WINDOW = 400;
const escapeLike = (w: string) => w.replace(/[\\%_]/g, (c) => `\\${c}`);

/** The text search's reads (recording_search_order and recording_search_trgm). */
export class SearchRepository {
  /**
   * The first `n` meetings holding every word, newest first by recordedAt, each with its snippet's
   * sources (SearchRow), in two steps so that both common and rare words stay cheap: the newest
   * SEARCH_WINDOW meetings in scope are read by the ordered index and matched one by one (a common
   * word fills the page there); only when they do not fill it and the window was full are the older
   * ones found by the trigram index, which a rare word needs. The planner cannot tell the two apart
   * for a given account, so the service does. The first step's statement also counts the window:
   * a scope with fewer meetings than the window (most accounts) is searched in one statement.
   */
  async matching(
    db: Db,
    q: SearchScope,
    words: string[],
    after: { createdAt: Date; id: string } | null,
    n: number,
  ): Promise<SearchRow[]> {
    const shape: ScopeShape = {
      series: q.seriesId !== undefined,
      kind: q.kind !== undefined,
      from: q.from !== undefined,
      to: q.to !== undefined,
      after: after !== null,
    };
    const values: ScopeValues & FirstValues = {
      owner: q.seriesId ?? q.accountId,
      kind: q.kind,
      from: q.from === undefined ? undefined : new Date(q.from),
      to: q.to === undefined ? undefined : new Date(q.to),
      afterAt: after?.createdAt,
      afterId: after?.id,
      words,
      likes: words.map((w) => `%${escapeLike(w)}%`),
      n,
    };
    const first = await firstStepInTurn(db, shape, values);
    const windowFull = first[0]?.windowFull ?? false;
    const found = first.filter((r): r is SearchRow & { windowFull: boolean } => r.id !== null);
    if (found.length >= n || !windowFull) return found;
    // Older than the window's last meeting.
    const older = scope(shape, values, db.selectFrom('recording').select(SEARCH_COLUMNS)).where(
      sql<boolean>`(recorded_at, id) < (${edgeOf(db, shape, values)})`,
    );
    // A word each, ANDed: the trigram index takes `like`, not `like all` (unnamed: see runNamed).
    const holds = sql.join(
      values.likes.map((l) => sql`m.search_text like ${l}`),
      sql` and `,
    );
    const rest = await matchedWithSources(sql`(${older})`, holds, words, n - found.length).execute(db);
    return [...found, ...rest.rows];
  }
}

/** Which of a search's optional filters are given: what picks the shape of its statements. */
type ScopeShape = { series: boolean; kind: boolean; from: boolean; to: boolean; after: boolean };

/** A search's scope values (those its shape leaves out are not read). */
interface ScopeValues {
  /** The series' id with `series`, else the account's. */
  owner: string;
  kind: RecordingKind | undefined;
  from: Date | undefined;
  to: Date | undefined;
  afterAt: Date | undefined;
  afterId: string | undefined;
}

/** Values or SQL that computes them (the batched first step reads each search's from its JSON text). */
type InSql<T> = { [K in keyof T]: T[K] | RawBuilder<any> };

interface FirstValues {
  words: string[];
  likes: string[];
  n: number;
}

const SEARCH_COLUMNS = [...LISTED_COLUMNS, 'searchText', 'searchTurns'] as const;

/** The meetings in scope (READY, not deleted), newest first by recordedAt. */
function scope<T extends SelectQueryBuilder<Database, 'recording', object>>(
  shape: ScopeShape,
  v: InSql<ScopeValues>,
  sel: T,
): T {
  let s = sel.where('status', '=', READY).where('deletedAt', 'is', null);
  s = shape.series ? s.where('seriesId', '=', v.owner) : s.where('accountId', '=', v.owner);
  if (shape.kind) s = s.where('kind', '=', v.kind!);
  if (shape.from) s = s.where('recordedAt', '>=', v.from!);
  if (shape.to) s = s.where('recordedAt', '<=', v.to!);
  // A row comparison, so the keyset position bounds the ordered index (recording_search_order).
  if (shape.after) s = s.where(sql<boolean>`(recorded_at, id) < (${v.afterAt}, ${v.afterId})`);
  return s.orderBy('recordedAt', 'desc').orderBy('id', 'desc') as T;
}

/** The window's last meeting: there is none when the window holds every meeting in scope. */
function edgeOf(db: Db, shape: ScopeShape, v: InSql<ScopeValues>) {
  return scope(shape, v, db.selectFrom('recording').select(['recordedAt', 'id']))
    .offset(SEARCH_WINDOW - 1)
    .limit(1);
}

/**
 * The first step: the newest SEARCH_WINDOW meetings in scope matched one by one, with whether the
 * window was full. One text per shape whatever the words (one array each), named, so Postgres plans
 * it once per connection. Whether the window was full is asked (the edge, an index probe) only when
 * the window did not fill the page: a CASE runs only the branch it takes.
 */
function firstStep(db: Kysely<Database>, shape: ScopeShape, v: InSql<ScopeValues & FirstValues>) {
  const newest = scope(shape, v, db.selectFrom('recording').select(SEARCH_COLUMNS)).limit(SEARCH_WINDOW);
  return sql<FirstRow>`
      with h as (${matchedWithSources(sql`(${newest})`, sql`m.search_text like all(${v.likes}::text[])`, v.words, v.n)})
      select c.window_full as "windowFull", h.*
      from (select case when (select count(*) from h) < ${v.n} then exists (${edgeOf(db, shape, v)}) else true end as window_full) c
      left join h on true
      order by h.recorded_at desc, h.id desc`;
}
type FirstRow = Nullable<SearchRow> & { windowFull: boolean };

/** A search's values as the batched first step carries them: one JSON text per search (k.q). */
const queryText = (v: ScopeValues & FirstValues): string =>
  JSON.stringify({
    owner: v.owner,
    kind: v.kind,
    from: v.from?.toISOString(),
    to: v.to?.toISOString(),
    afterAt: v.afterAt?.toISOString(),
    afterId: v.afterId,
    words: v.words,
    likes: v.likes,
    n: v.n,
  });
const field = (name: string) => sql`(k.q::jsonb ->> ${sql.lit(name)})`;
const texts = (name: string) => sql`array(select jsonb_array_elements_text(k.q::jsonb -> ${sql.lit(name)}))`;
/** Each value of the first step read out of the search's own JSON text, in SQL (no parameter). */
const IN_QUERY: InSql<ScopeValues & FirstValues> = {
  owner: field('owner'),
  kind: field('kind'),
  from: sql`${field('from')}::timestamptz`,
  to: sql`${field('to')}::timestamptz`,
  afterAt: sql`${field('afterAt')}::timestamptz`,
  afterId: field('afterId'),
  words: texts('words'),
  likes: texts('likes'),
  n: sql`${field('n')}::int`,
};

/**
 * The first step of every search of one shape in one turn of the event loop, in one statement:
 * each search's values a JSON text, its first step a lateral read of the same shape as alone (the
 * same indexes, its own window and count), its rows named by that text. Under load the searches
 * the gateway sends together cost Postgres one round trip (a write to its socket, a wake-up of its
 * backend: most of the recordings service's CPU per search, profiled) instead of one each.
 */
const firstStepOfTurn = preparedShapes(
  (db: Kysely<Database>, shape: ScopeShape, v: { queries: string[] }) =>
    sql<FirstRow & { forQuery: string }>`
      select k.q as "forQuery", r.*
      from unnest(${keyArray(v.queries)}) with ordinality as k(q, i)
      cross join lateral (${firstStep(db, shape, IN_QUERY)}) r
      order by k.i, r.recorded_at desc, r.id desc`,
);
/** Searches of one statement at most (each is a lateral read of up to SEARCH_WINDOW rows). */
const MAX_SEARCHES_PER_READ = 32;
/**
 * A search alone in its turn runs the first step by itself, a named statement Postgres plans once
 * per connection (its generic plan; test: generic-plans.int). The batched statement keeps its
 * generic plan too, for turns of 3 and of 12 searches alike (generic-plans.int; round 11 corrected
 * round 9's note that it was planned on every run).
 */
const firstStepAlone = preparedShapes((db: Kysely<Database>, shape: ScopeShape, v: ScopeValues & FirstValues) =>
  firstStep(db, shape, v),
);
/** A search waiting for its turn's statement: its values, and their JSON text (the batch's key). */
interface Asked {
  text: string;
  values: ScopeValues & FirstValues;
}
const turnBatchers = new WeakMap<Db, Map<string, TurnBatcher<Asked, FirstRow[]>>>();

/** The first step of one search, read with the other searches of its shape in this turn. */
async function firstStepInTurn(db: Db, shape: ScopeShape, v: ScopeValues & FirstValues): Promise<FirstRow[]> {
  if ((db as Partial<Kysely<Database>>).isTransaction !== false) return firstStepAlone.all(db, shape, v);
  let byShape = turnBatchers.get(db);
  if (!byShape) turnBatchers.set(db, (byShape = new Map()));
  const key = JSON.stringify(shape);
  let batcher = byShape.get(key);
  if (!batcher) {
    batcher = new TurnBatcher(async (asked: Asked[]) => {
      if (asked.length === 1) return new Map([[asked[0]!, await firstStepAlone.all(db, shape, asked[0]!.values)]]);
      const texts = [...new Set(asked.map((a) => a.text))];
      const byText = new Map<string, FirstRow[]>();
      for (const { forQuery, ...row } of await firstStepOfTurn.all(db, shape, { queries: texts })) {
        const group = byText.get(forQuery);
        if (group) group.push(row);
        else byText.set(forQuery, [row]);
      }
      return new Map(asked.map((a) => [a, byText.get(a.text) ?? []]));
    }, MAX_SEARCHES_PER_READ);
    byShape.set(key, batcher);
  }
  return (await batcher.load({ text: queryText(v), values: v })) ?? [];
}

/** A row of a left join that may have found nothing: every column null. */
type Nullable<T> = { [K in keyof T]: T[K] | null };

/**
 * The meetings of `from` (recording rows with their search text, `m`) that `holds` (every pattern),
 * newest first, at most `n`, each with its digest and the text of the first turn holding one of
 * them. Read inside Postgres: of a transcript only that turn leaves it, and no search text at all.
 */
function matchedWithSources(
  from: RawBuilder<unknown>,
  holds: RawBuilder<unknown>,
  words: string[] | RawBuilder<any>,
  n: number | RawBuilder<any>,
): RawBuilder<SearchRow> {
  // The first line holding a word is the line of the earliest place any word is found: the
  // newlines before it (strpos: a word as it is, no pattern).
  return sql<SearchRow>`
    select ${sql.join(LISTED_COLUMNS.map((c) => sql.ref(`m.${c}`)))}, m.search_turns as "searchTurns", m.part,
      d.title as "digestTitle", d.language as "digestLanguage", d.sections,
      t.segments -> m.part ->> 'text' as turn, (t.segments -> m.part ->> 'startMs')::bigint::float8 as "turnMs"
    from (
      select m.*, (
        select (length(x.s) - length(replace(x.s, chr(10), '')))::int
        from (select substr(m.search_text, 1, min(nullif(strpos(m.search_text, w), 0))) as s
          from unnest(${words}::text[]) as w) x
      ) as part
      from ${from} as m where ${holds} order by m.recorded_at desc, m.id desc limit ${n}
    ) m
    left join digest d on d.recording_id = m.id
    left join transcript t on m.part < m.search_turns and t.recording_id = m.id
    order by m.recorded_at desc, m.id desc`;
}
