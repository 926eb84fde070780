import { sql, type Kysely, type Transaction } from 'kysely';
import type { Pool } from 'pg';
import { prepared } from '@mm/db';
import { DAY_MS, type LedgerFacts, type Spend } from '../domain/wallet';
import type { LoadedSummary } from '../domain/wallet-summary';
import type { CreditKind, Database, LedgerKind } from './schema';

type Db = Kysely<Database> | Transaction<Database>;

/**
 * whoami's figures in one statement: the balance and the open holds from the wallet's kept totals
 * (migration 0008), and one token's spending since a moment, with the oldest spend counted (which
 * says how long the figure holds: domain/wallet-summary), by the ledger's token index. An account
 * with no wallet yet reads zeros. Run as a named prepared statement (planned once per connection):
 * it is on the path of every whoami and account read that the summary cache does not answer.
 */
const SUMMARY_SQL = `
  select
    coalesce(w.credits - w.captures - w.ask_charges, 0) as balance,
    coalesce(w.held - w.held_closed, 0) as open_holds,
    t.used,
    t.oldest_used
  from (
    select coalesce(sum(l.minutes), 0) as used, min(l.created_at) as oldest_used
    from ledger_entry l
    where l.token_id = $2 and l.account_id = $1 and l.kind in ('hold', 'ask_charge') and l.created_at > $3
  ) t
  left join wallet w on w.account_id = $1`;

/**
 * The statements of every money move (a meeting's hold, an Ask's charge, a capture or release),
 * prepared (libs/db `prepared`): built and compiled once, parsed by Postgres once per connection
 * and planned by its rule for prepared statements. Built per call they cost the account service
 * ~100 µs of kysely each and Postgres a plan each (0.75 ms for the ledger's figures): a submit's
 * hold ran seven of them (docs/decisions.md, session 31). Each reads by an indexed key.
 */
const ENSURE_WALLET = prepared((db: Kysely<Database>, accountId: string) =>
  db
    .insertInto('wallet')
    .values({ accountId })
    .onConflict((oc) => oc.column('accountId').doNothing()),
);
const LOCK_WALLET = prepared((db: Kysely<Database>, accountId: string) =>
  db.selectFrom('wallet').select('accountId').where('accountId', '=', accountId).forUpdate(),
);
/** The ledger's figures, from the totals the wallet row keeps (migration 0008): one row read. */
const FACTS = prepared((db: Kysely<Database>, accountId: string) =>
  db
    .selectFrom('wallet')
    .select((eb) => [
      'credits',
      'captures',
      'askCharges',
      eb(eb.ref('held'), '-', eb.ref('heldClosed')).as('openHolds'),
      'hasTrial',
      'hasPurchase',
    ])
    .where('accountId', '=', accountId),
);
const TOKEN_SPENDS = prepared((db: Kysely<Database>, tokenId: string, since: Date) =>
  db
    .selectFrom('ledgerEntry')
    .select(['minutes', 'createdAt'])
    .where('tokenId', '=', tokenId)
    .where('kind', 'in', ['hold', 'ask_charge'])
    .where('createdAt', '>', since),
);
const DAILY_COUNT = prepared((db: Kysely<Database>, accountId: string, kind: LedgerKind, since: Date) =>
  db
    .selectFrom('ledgerEntry')
    .select((eb) => [eb.fn.countAll<string>().as('n'), eb.fn.min('createdAt').as('oldest')])
    .where('accountId', '=', accountId)
    .where('kind', '=', kind)
    .where('forced', '=', false)
    .where('createdAt', '>', since),
);
const BY_REFERENCE = prepared((db: Kysely<Database>, reference: string) =>
  db.selectFrom('ledgerEntry').selectAll().where('reference', '=', reference),
);
const CLOSING = prepared((db: Kysely<Database>, holdReference: string) =>
  db
    .selectFrom('ledgerEntry')
    .selectAll()
    .where('holdReference', '=', holdReference)
    .where('kind', 'in', ['capture', 'release']),
);

/**
 * Ledger queries. Money moves only by inserting entries; figures are the sums over them, which the
 * wallet row keeps as totals (migration 0008).
 */
export class WalletRepository {
  constructor(
    readonly db: Kysely<Database>,
    /** The pool behind `db` (same schema), for the named prepared statement. */
    private readonly pool: Pool,
  ) {}

  async summary(accountId: string, tokenId: string | null, since: Date): Promise<LoadedSummary> {
    const { rows } = await this.pool.query<{
      balance: string;
      open_holds: string;
      used: string;
      oldest_used: Date | null;
    }>({
      name: 'wallet-summary',
      text: SUMMARY_SQL,
      values: [accountId, tokenId, since],
    });
    const r = rows[0];
    return {
      balance: Number(r.balance),
      openHolds: Number(r.open_holds),
      used: Number(r.used),
      since,
      oldestCountedAt: r.oldest_used,
    };
  }

  /** Creates the account's wallet row if needed and locks it for the transaction. */
  async lock(trx: Transaction<Database>, accountId: string): Promise<void> {
    await ENSURE_WALLET.all(trx, accountId);
    await LOCK_WALLET.all(trx, accountId);
  }

  async facts(db: Db, accountId: string): Promise<LedgerFacts> {
    const r = await FACTS.first(db, accountId);
    if (!r) return { credits: 0, captures: 0, askCharges: 0, openHolds: 0, hasTrialCredit: false, hasPurchase: false };
    return {
      credits: Number(r.credits),
      captures: Number(r.captures),
      askCharges: Number(r.askCharges),
      openHolds: Number(r.openHolds),
      hasTrialCredit: r.hasTrial,
      hasPurchase: r.hasPurchase,
    };
  }

  /** The token's spends that count against its daily cap: meetings from acceptance (holds) and Ask prices. */
  async tokenSpends(db: Db, tokenId: string, now: Date): Promise<Spend[]> {
    const rows = await TOKEN_SPENDS.all(db, tokenId, new Date(now.getTime() - DAY_MS));
    return rows.map((r) => ({ minutes: r.minutes, at: r.createdAt }));
  }

  /**
   * How many entries of a kind the account made in the last 24 hours, and when the oldest was.
   * Forced holds (a retried or restored meeting) are not new meetings and do not count.
   */
  async dailyCount(
    db: Db,
    accountId: string,
    kind: LedgerKind,
    now: Date,
  ): Promise<{ used: number; oldestAt: Date | null }> {
    const r = (await DAILY_COUNT.first(db, accountId, kind, new Date(now.getTime() - DAY_MS)))!;
    return { used: Number(r.n), oldestAt: (r.oldest as Date | null) ?? null };
  }

  async byReference(db: Db, reference: string) {
    return BY_REFERENCE.first(db, reference);
  }

  /**
   * Holds neither captured nor released, made before `before`, oldest first, after the `after`
   * hold of an earlier page (references without the `hold:` prefix).
   */
  async openHoldsBefore(
    db: Db,
    before: Date,
    limit: number,
    after?: { createdAt: string; reference: string },
  ): Promise<{ accountId: string; reference: string; createdAt: string }[]> {
    // Pages are keyed on (created_at, reference), the time passed as Postgres text so that no
    // microsecond is lost on the way. Only open holds are read (table open_hold, migration 0009).
    let q = db
      .selectFrom('openHold as h')
      .select(['h.accountId', 'h.reference', sql<string>`h.created_at::text`.as('createdAt')])
      .where('h.createdAt', '<', before);
    if (after) {
      q = q.where(
        sql<boolean>`(h.created_at, h.reference) > (${after.createdAt}::timestamptz, ${`hold:${after.reference}`})`,
      );
    }
    const rows = await q.orderBy('h.createdAt').orderBy('h.reference').limit(limit).execute();
    return rows.map((r) => ({
      accountId: r.accountId,
      reference: r.reference.replace(/^hold:/, ''),
      createdAt: r.createdAt,
    }));
  }

  /** The entry that closed a hold (capture or release), if any. */
  async closing(db: Db, holdReference: string) {
    return CLOSING.first(db, holdReference);
  }

  async insert(
    db: Db,
    e: {
      accountId: string;
      kind: LedgerKind;
      minutes: number;
      reference: string;
      creditKind?: CreditKind;
      holdReference?: string;
      tokenId?: string | null;
      forced?: boolean;
      createdAt?: Date;
    },
  ): Promise<void> {
    await db
      .insertInto('ledgerEntry')
      .values({
        accountId: e.accountId,
        kind: e.kind,
        minutes: e.minutes,
        reference: e.reference,
        creditKind: e.creditKind ?? null,
        holdReference: e.holdReference ?? null,
        tokenId: e.tokenId ?? null,
        forced: e.forced ?? false,
        ...(e.createdAt ? { createdAt: e.createdAt } : {}),
      })
      .execute();
  }
}
