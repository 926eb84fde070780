import { sql, type Compilable, type Expression, type Kysely, type RawBuilder } from 'kysely';
import { prepared, preparedByKeys, unnestKeys } from '@mm/db';
import { TurnBatcher } from '@mm/platform';
import { FEED_COLUMNS, type Database, type FeedRow, type NewEvent } from './schema';

type Db = Kysely<Database>;

/**
 * Advisory lock taken by every insert (and, shared, by `latest`): inserts commit one at a time, so a
 * reader never sees seq N+1 committed while N is still in flight and can never skip an event.
 */
const INSERT_LOCK = 7_291_001;

/**
 * The statements of an insert, prepared (libs/db `prepared`): built and compiled once and parsed by
 * Postgres once per connection, where each event stored (every meeting's every change) built four
 * statements with kysely and had Postgres parse and plan them (docs/decisions.md, session 31).
 */
const INSERT = {
  lock: prepared((db: Db) => ({ compile: () => sql`select pg_advisory_xact_lock(${INSERT_LOCK})`.compile(db) })),
  lastSeq: prepared((db: Db, recordingId: string) =>
    db.selectFrom('meetingOrder').select('lastSeq').where('recordingId', '=', recordingId),
  ),
  stored: prepared((db: Db, id: string) => db.selectFrom('event').select('id').where('id', '=', id)),
  event: prepared(
    (
      db: Db,
      id: string,
      type: string,
      recordingId: string,
      accountId: string,
      tokenId: string | null,
      seriesId: string | null,
      occurredAt: Date,
      data: unknown,
      meetingSeq: number | null,
    ) =>
      db
        .insertInto('event')
        .values({ id, type, recordingId, accountId, tokenId, seriesId, occurredAt, data, meetingSeq })
        .onConflict((oc) => oc.column('id').doNothing())
        .returning('id'),
  ),
  order: prepared((db: Db, recordingId: string, lastSeq: number) =>
    db
      .insertInto('meetingOrder')
      .values({ recordingId, lastSeq })
      .onConflict((oc) =>
        oc.column('recordingId').doUpdateSet({ lastSeq: sql`greatest(meeting_order.last_seq, excluded.last_seq)` }),
      ),
  ),
};

/** What became of an event offered to the feed (EventRepository.insert). */
export interface InsertOutcome {
  stored: boolean;
  waiting: boolean;
  gap: boolean;
}

export interface FeedQuery {
  accountId: string;
  /** Only this token's meetings (a write-only token); undefined = every event of the account. */
  tokenId?: string | null;
  afterSeq: bigint;
  limit: number;
  /** Events that occurred before this are no longer served. */
  notBefore: Date;
}

/**
 * The feed's rows of an account after a seq, not older than a date (every page shape starts here):
 * values, or a key row's columns where the pages of a turn are read together.
 */
function feedQuery(
  db: Db,
  accountId: string | RawBuilder<string>,
  afterSeq: string | RawBuilder<string>,
  notBefore: Date | RawBuilder<Date>,
) {
  return db
    .selectFrom('event')
    .select(FEED_COLUMNS)
    .where('accountId', '=', accountId)
    .where('seq', '>', afterSeq)
    .where('occurredAt', '>=', notBefore);
}

/** A page's rows with the sequence's state on each (`pageWithCeiling`); a page of none is one row of nulls. */
type CeilingRow = FeedRow & { ceilingValue: string; ceilingCalled: boolean };

/** The sequence's state (`event_seq_seq s`) as every page with the ceiling selects it first. */
const CEILING_COLUMNS = sql`s.last_value as ceiling_value, s.is_called as ceiling_called`;

/** `page` after the sequence's row, joined on true: the ceiling and the page in one statement. */
function withCeiling(db: Db, page: Expression<unknown>): Compilable<CeilingRow> {
  return {
    compile: () =>
      sql<CeilingRow>`select ${CEILING_COLUMNS}, e.* from event_seq_seq s left join lateral (${page}) e on true order by e.seq asc`.compile(
        db,
      ),
  };
}

type Page<R> = { all(db: Db, accountId: string, afterSeq: string, notBefore: Date, limit: number): Promise<R[]> };
type TokenPage<R> = {
  all(db: Db, accountId: string, afterSeq: string, notBefore: Date, limit: number, tokenId: string): Promise<R[]>;
};
/** One prepared query per shape of the page: every event of the account, one token's meetings, none. */
interface PageShapes<R> {
  account: Page<R>;
  token: TokenPage<R>;
  none: Page<R>;
}

const PAGE: PageShapes<FeedRow> = {
  account: prepared((db: Db, accountId: string, afterSeq: string, notBefore: Date, limit: number) =>
    feedQuery(db, accountId, afterSeq, notBefore).orderBy('seq', 'asc').limit(limit),
  ),
  token: prepared((db: Db, accountId: string, afterSeq: string, notBefore: Date, limit: number, tokenId: string) =>
    feedQuery(db, accountId, afterSeq, notBefore).where('tokenId', '=', tokenId).orderBy('seq', 'asc').limit(limit),
  ),
  none: prepared((db: Db, accountId: string, afterSeq: string, notBefore: Date, limit: number) =>
    feedQuery(db, accountId, afterSeq, notBefore).where(sql<boolean>`false`).orderBy('seq', 'asc').limit(limit),
  ),
};

/** The key a cursor's page is read by: account, seq after, not before (ISO), limit; a token's page adds the token. */
type PageKey = [accountId: string, afterSeq: string, notBefore: string, limit: string];
/** A page's row with the key it was read for (left out of what the repository answers). */
type KeyedCeilingRow = CeilingRow & { forAccount: string; forAfter: string; forNotBefore: string; forLimit: string };

/**
 * The cursor pages of one turn, each with the sequence's state, in one statement per shape
 * (`preparedByKeys`): each key's page a lateral read of the same shape as alone (its own index scan
 * and limit), left joined so a key with an empty page still gets the ceiling, on a row of nulls.
 */
function pagesWithCeiling(db: Db, keys: string[][], token: boolean): Compilable<KeyedCeilingRow> {
  const [accounts, afters, notBefores, limits, tokens] = keys;
  let page = feedQuery(db, sql<string>`k.owner`, sql<string>`k.after::bigint`, sql<Date>`k.nb::timestamptz`);
  if (token) page = page.where('tokenId', '=', sql<string>`k.tok`);
  const lateral = page.orderBy('seq', 'asc').limit(sql<number>`k.lim::int`);
  const unnested = token
    ? sql`${unnestKeys(accounts!, afters!, notBefores!, limits!, tokens!)} k(owner, after, nb, lim, tok)`
    : sql`${unnestKeys(accounts!, afters!, notBefores!, limits!)} k(owner, after, nb, lim)`;
  return {
    compile: () =>
      sql<KeyedCeilingRow>`select ${CEILING_COLUMNS}, k.owner as for_account, k.after as for_after, k.nb as for_not_before, k.lim as for_limit${token ? sql`, k.tok as for_token` : sql``}, e.* from event_seq_seq s cross join ${unnested} left join lateral (${lateral}) e on true order by e.seq asc`.compile(
        db,
      ),
  };
}

/**
 * A key's page read by its values (a turn with one page in it): the batched statement's lateral
 * join over unnested keys costs Postgres more for one key than this plain read (docs/decisions.md, round 11).
 */
function pageAlone(db: Db, key: PageKey, tokenId?: string): Compilable<CeilingRow> {
  const [accountId, afterSeq, notBefore, limit] = key;
  let page = feedQuery(db, accountId, afterSeq, sql<Date>`${notBefore}::timestamptz`);
  if (tokenId !== undefined) page = page.where('tokenId', '=', tokenId);
  return withCeiling(db, page.orderBy('seq', 'asc').limit(sql<number>`${limit}::int`));
}

const keyOfPage = (r: KeyedCeilingRow): PageKey => [r.forAccount, r.forAfter, r.forNotBefore, r.forLimit];
const PAGE_WITH_CEILING = {
  account: preparedByKeys<Database, PageKey, KeyedCeilingRow, CeilingRow>(
    (db, accounts, afters, notBefores, limits) => pagesWithCeiling(db, [accounts, afters, notBefores, limits], false),
    keyOfPage,
    (db, accountId, afterSeq, notBefore, limit) => pageAlone(db, [accountId, afterSeq, notBefore, limit]),
  ),
  token: preparedByKeys<Database, [...PageKey, tokenId: string], KeyedCeilingRow & { forToken: string }, CeilingRow>(
    (db, accounts, afters, notBefores, limits, tokens) =>
      pagesWithCeiling(db, [accounts, afters, notBefores, limits, tokens], true) as Compilable<
        KeyedCeilingRow & { forToken: string }
      >,
    (r) => [...keyOfPage(r), r.forToken],
    (db, accountId, afterSeq, notBefore, limit, tokenId) =>
      pageAlone(db, [accountId, afterSeq, notBefore, limit], tokenId),
  ),
  /** A token that reads no events (rare): the ceiling on a row of nulls, alone. */
  none: prepared((db: Db, afterSeq: string, notBefore: Date, limit: number) =>
    withCeiling(
      db,
      feedQuery(db, '', afterSeq, notBefore).where(sql<boolean>`false`).orderBy('seq', 'asc').limit(limit),
    ),
  ),
};

/** The page of `q` in its shape: a token of undefined reads every event, null none, a token its meetings. */
function readPage<R>(shapes: PageShapes<R>, db: Db, q: FeedQuery): Promise<R[]> {
  const afterSeq = q.afterSeq.toString();
  if (q.tokenId === undefined) return shapes.account.all(db, q.accountId, afterSeq, q.notBefore, q.limit);
  if (q.tokenId === null) return shapes.none.all(db, q.accountId, afterSeq, q.notBefore, q.limit);
  return shapes.token.all(db, q.accountId, afterSeq, q.notBefore, q.limit, q.tokenId);
}

/**
 * The highest seq handed out so far, read under the insert lock (shared); see `currentSeq`.
 */
const CURRENT_SEQ = prepared((db: Db) => ({
  compile: () =>
    sql<{
      lastValue: string | null;
    }>`select l.locked, pg_sequence_last_value('event_seq_seq'::regclass) as last_value from (select pg_advisory_xact_lock_shared(${INSERT_LOCK}) as locked offset 0) l`.compile(
      db,
    ),
}));

/** The events table: the feed's one store. */
export class EventRepository {
  /**
   * The `latest` reads of one turn share one statement: the value is the same for every account,
   * and each reader asked before the statement was sent, so none is placed before an event it
   * should have seen go by (TurnBatcher; one key, every waiter in one lookup).
   */
  private readonly latest = new TurnBatcher<'latest', bigint>(
    async () => new Map([['latest', await this.readCurrentSeq()]]),
    Number.MAX_SAFE_INTEGER,
  );

  constructor(private readonly db: Db) {}

  /**
   * Stores an event once, after its meeting's previous event (by `meetingSeq`). `stored`: false
   * when it was already there (a redelivery). `waiting`: its predecessor is not stored yet and
   * `waitForEarlier` holds, so nothing was written. `gap`: stored although its predecessor is not.
   */
  async insert(e: NewEvent, opts: { waitForEarlier: boolean } = { waitForEarlier: true }): Promise<InsertOutcome> {
    return this.db.transaction().execute(async (trx) => {
      await INSERT.lock.all(trx);
      const seq = e.meetingSeq ?? null;
      let gap = false;
      if (seq !== null && seq > 1) {
        const order = await INSERT.lastSeq.first(trx, e.recordingId);
        gap = (order?.lastSeq ?? 0) < seq - 1;
        if (gap && opts.waitForEarlier) {
          const there = await INSERT.stored.first(trx, e.id);
          return there ? { stored: false, waiting: false, gap: false } : { stored: false, waiting: true, gap: true };
        }
      }
      const inserted = await INSERT.event.all(
        trx,
        e.id,
        e.type,
        e.recordingId,
        e.accountId,
        e.tokenId ?? null,
        e.seriesId ?? null,
        e.occurredAt,
        e.data,
        seq,
      );
      const stored = inserted.length > 0;
      if (seq !== null) await INSERT.order.all(trx, e.recordingId, seq);
      return { stored, waiting: false, gap: stored && gap };
    });
  }

  /** Up to `limit` events after `afterSeq`, oldest first. */
  async page(q: FeedQuery): Promise<FeedRow[]> {
    return readPage(PAGE, this.db, q);
  }

  /**
   * `page` and the highest seq ever numbered (read without waiting for inserts in flight: enough
   * to tell a cursor from before a restore) in one statement, one round trip: the sequence's row,
   * joined to the page. A follow reads both on every poll, most often to find the page empty.
   */
  async pageWithCeiling(q: FeedQuery): Promise<{ rows: FeedRow[]; ceiling: bigint }> {
    const afterSeq = q.afterSeq.toString();
    const key: PageKey = [q.accountId, afterSeq, q.notBefore.toISOString(), String(q.limit)];
    const rows: CeilingRow[] =
      q.tokenId === undefined
        ? await PAGE_WITH_CEILING.account.all(this.db, ...key)
        : q.tokenId === null
          ? await PAGE_WITH_CEILING.none.all(this.db, afterSeq, q.notBefore, q.limit)
          : await PAGE_WITH_CEILING.token.all(this.db, ...key, q.tokenId);
    const first = rows[0];
    const ceiling = first && first.ceilingCalled ? BigInt(first.ceilingValue) : 0n;
    // Only the feed's columns: not the sequence's state, nor the key a batched page was read for.
    const page = rows
      .filter((r) => r.id !== null)
      .map((r) => Object.fromEntries(FEED_COLUMNS.map((c) => [c, r[c]])) as FeedRow);
    return { rows: page, ceiling };
  }

  /**
   * The highest seq handed out so far (0 when none). Read under the insert lock (shared), so every
   * event up to it is committed: a cursor placed there misses nothing. One statement (one round
   * trip, its own transaction): the subquery takes the lock (OFFSET 0 keeps it a subquery, and a
   * volatile output is never dropped), the outer projection reads the sequence on its row, so after
   * the lock is granted; the lock ends with the statement's transaction.
   */
  async currentSeq(): Promise<bigint> {
    return (await this.latest.load('latest'))!;
  }

  private async readCurrentSeq(): Promise<bigint> {
    // Shared: it still waits for every insert in flight (they hold the lock exclusively), but
    // readers of `latest` no longer queue behind one another (every account's polls took turns).
    const last = (await CURRENT_SEQ.first(this.db))?.lastValue;
    return last === null || last === undefined ? 0n : BigInt(last);
  }

  /**
   * Deletes at most `limit` of the oldest events that occurred before `before` (found by the
   * occurred_at index), in one short statement of its own; returns how many.
   */
  async deleteOlderThan(before: Date, limit: number): Promise<number> {
    const oldest = this.db
      .selectFrom('event')
      .select('seq')
      .where('occurredAt', '<', before)
      .orderBy('occurredAt')
      .limit(limit);
    const r = await this.db.deleteFrom('event').where('seq', 'in', oldest).executeTakeFirst();
    return Number(r.numDeletedRows ?? 0);
  }
}
