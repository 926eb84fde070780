import { randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import { migrateSchema, openDatabase } from '@mm/db';
import type { Pool } from 'pg';
import { ApiError } from '@mm/http';
import { migrations } from '../migrations';
import type { Database } from '../src/db/schema';
import { WalletService } from '../src/services/wallet.service';
import { WalletSummaryCache } from '../src/services/wallet-summary.cache';
import { WalletChangesListener } from '../src/db/wallet-changes.listener';
import { newSequence, type Op, type Outcome } from './support/wallet-model';

/**
 * The real WalletService on Postgres against the independent model of the contract's rules:
 * 20 random sequences of 30 operations, time driven through the use cases' `clock`.
 */
const SEQUENCES = 20;
const OPS = 30;
const DATABASE_URL = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/meeting_memory_test';

const quiet = { warn: () => undefined };

let db: Kysely<Database>;
let pool: Pool;
/** A cache kept coherent by the ledger's change notifications, as in the running service. */
const cache = new WalletSummaryCache();
let listener: WalletChangesListener;
beforeAll(async () => {
  await migrateSchema(DATABASE_URL, 'account', migrations);
  ({ db, pool } = openDatabase<Database>({ url: DATABASE_URL, schema: 'account', poolSize: 2 }));
  listener = new WalletChangesListener(DATABASE_URL, cache, quiet);
  await listener.start();
});
afterAll(async () => {
  await listener.stop();
  await db.destroy();
});

type Normal =
  | { ok: true; replay?: boolean; captured?: boolean }
  | { ok: false; code: string; details: Record<string, number> | null; retryAfter: number | null };

const normal = (o: Outcome): Normal =>
  o.ok ? o : { ok: false, code: o.code, details: o.details ?? null, retryAfter: o.retryAfter ?? null };

/**
 * Runs one operation on the service. References are unique in the whole ledger (they are meeting
 * and Ask ids), so they carry the account id; token ids carry it too.
 */
async function applyToService(wallet: WalletService, accountId: string, op: Op, now: Date): Promise<Normal> {
  const ref = (r: string) => `${accountId}:${r}`;
  const tok = (t: string | null) => (t === null ? null : `${accountId}:${t}`);
  try {
    switch (op.kind) {
      case 'advance':
        return { ok: true };
      case 'credit':
        await wallet.credit(accountId, op.minutes, op.creditKind, ref(op.ref), now);
        return { ok: true };
      case 'hold':
      case 'ask': {
        const req = {
          accountId,
          reference: ref(op.ref),
          minutes: op.minutes,
          tokenId: tok(op.caller.tokenId),
          dailyMinuteCap: op.caller.cap,
          showBalance: op.caller.showBalance,
        };
        const r = op.kind === 'hold' ? await wallet.hold(req, now) : await wallet.chargeAsk(req, now);
        return { ok: true, replay: r.replay };
      }
      case 'capture':
        return { ok: true, captured: (await wallet.capture(accountId, ref(op.ref), op.minutes, now)).captured };
      case 'release':
        return { ok: true, captured: (await wallet.release(accountId, ref(op.ref), now)).captured };
    }
  } catch (err) {
    if (!(err instanceof ApiError)) throw err;
    const retryAfter = err.headers?.['Retry-After'];
    return {
      ok: false,
      code: err.code,
      details: (err.details as Record<string, number> | undefined) ?? null,
      retryAfter: retryAfter === undefined ? null : Number(retryAfter),
    };
  }
}

/**
 * The totals the wallet row keeps (a trigger on the ledger, migration 0008) against the sums over
 * the account's ledger entries, computed here on their own; and its open holds (0009).
 */
async function expectKeptTotals(accountId: string, where: string): Promise<void> {
  const { rows } = await pool.query(
    `select
       (select row(credits, captures, ask_charges, held - held_closed, has_trial, has_purchase)::text
          from wallet where account_id = $1) as kept,
       (select row(
          coalesce(sum(minutes) filter (where kind = 'credit'), 0),
          coalesce(sum(minutes) filter (where kind = 'capture'), 0),
          coalesce(sum(minutes) filter (where kind = 'ask_charge'), 0),
          coalesce(sum(minutes) filter (where kind = 'hold' and reference not in (
            select hold_reference from ledger_entry where hold_reference is not null and kind in ('capture', 'release'))), 0),
          coalesce(bool_or(credit_kind = 'trial'), false),
          coalesce(bool_or(credit_kind = 'purchase'), false))::text
        from ledger_entry where account_id = $1) as summed`,
    [accountId],
  );
  expect({ where, kept: rows[0].kept }).toEqual({ where, kept: rows[0].summed });
  // The open holds the reconciler pages through (table open_hold, migration 0009), against the ledger's.
  const holds = await pool.query(
    `select
       array(select reference from open_hold where account_id = $1 order by reference) as kept,
       array(select h.reference from ledger_entry h where h.account_id = $1 and h.kind = 'hold' and not exists (
         select 1 from ledger_entry c where c.hold_reference = h.reference and c.kind in ('capture', 'release'))
         order by h.reference) as open`,
    [accountId],
  );
  expect({ where, openHolds: holds.rows[0].kept }).toEqual({ where, openHolds: holds.rows[0].open });
}

describe.each([
  ['reading the ledger every time', false],
  ['through the summary cache', true],
])('WalletService on Postgres against the model of the contract (property), %s', (_how, cached) => {
  it(`agrees on every decision and figure over ${SEQUENCES} random sequences of ${OPS} operations`, async () => {
    const hitsBefore = cache.hits;
    const run = `prop_${randomBytes(4).toString('hex')}`;
    const codes = new Set<string>();
    for (let seed = 1; seed <= SEQUENCES; seed++) {
      const seq = newSequence(10_000 + seed);
      const wallet = cached ? new WalletService(db, seq.limits, pool, cache) : new WalletService(db, seq.limits, pool);
      const accountId = `acc_${run}_${seed}`;
      const tokens = seq.callers.flatMap((c) => (c.tokenId ? [c.tokenId] : []));
      for (let step = 0; step < OPS; step++) {
        const op = seq.next();
        const expected = normal(seq.model.apply(op));
        const now = new Date(seq.model.now);
        const actual = await applyToService(wallet, accountId, op, now);
        const where = `seed ${10_000 + seed}, step ${step}: ${JSON.stringify(op)}`;
        expect({ where, outcome: actual }).toEqual({ where, outcome: expected });
        if (!expected.ok) codes.add(`${op.kind} ${expected.code}`);

        // Read twice: with the cache, the second read is answered from it.
        for (let read = 0; read < 2; read++) {
          const summaries = await Promise.all(tokens.map((t) => wallet.summary(accountId, `${accountId}:${t}`, now)));
          expect({ where, read, figures: summaries }).toEqual({
            where,
            read,
            figures: tokens.map((t) => ({
              balanceMinutes: seq.model.balance(),
              availableMinutes: seq.model.available(),
              usedMinutes24h: seq.model.used24h(t),
            })),
          });
        }
      }
      await expectKeptTotals(accountId, `seed ${10_000 + seed}`);
    }
    // The refusals the rules know must have been met, through the database's own sums and windows.
    expect([...codes].sort()).toEqual(
      expect.arrayContaining(['hold DAILY_LIMIT_REACHED', 'hold INSUFFICIENT_MINUTES', 'hold TOKEN_DAILY_CAP']),
    );
    // The cached run did answer from the cache (most second reads), not only from the ledger.
    if (cached) expect(cache.hits - hitsBefore).toBeGreaterThan(SEQUENCES * OPS * 0.5);
  }, 120_000);
});

describe('the summary cache across replicas', () => {
  it("forgets an account's figures when another process writes its ledger (trigger, NOTIFY)", async () => {
    const accountId = `acc_notify_${randomBytes(4).toString('hex')}`;
    const wallet = new WalletService(
      db,
      { dailyMeetingLimit: 100, dailyAskLimit: 100, trialOverdraftMinutes: 0 },
      pool,
      cache,
    );
    await wallet.credit(accountId, 10, 'grant', `${accountId}:c1`);
    // The credit's own notification may arrive after the first read and forget it: read until one is answered from the cache.
    const until = Date.now() + 5000;
    let hits = cache.hits;
    while (cache.hits === hits && Date.now() < until) {
      hits = cache.hits;
      expect((await wallet.summary(accountId, null)).balanceMinutes).toBe(10);
    }
    expect(cache.hits).toBeGreaterThan(hits);

    // Another replica's write: straight into the ledger, not through this WalletService.
    await pool.query(
      "insert into ledger_entry (account_id, kind, credit_kind, minutes, reference) values ($1, 'credit', 'grant', 5, $2)",
      [accountId, `${accountId}:c2`],
    );
    const deadline = Date.now() + 5000;
    let balance = 10;
    while (balance !== 15 && Date.now() < deadline) {
      balance = (await wallet.summary(accountId, null)).balanceMinutes;
      if (balance !== 15) await new Promise((r) => setTimeout(r, 10));
    }
    expect(balance).toBe(15);
  });
});

/**
 * Every stale hold of one account, paged through as the recordings reconciler does (the ledger is
 * shared by every test's accounts), in pages of `pageSize`.
 */
async function staleHoldsOf(
  wallet: WalletService,
  accountId: string,
  olderThanSeconds: number,
  pageSize: number,
): Promise<string[]> {
  const seen: string[] = [];
  let after: { createdAt: string; reference: string } | undefined;
  for (let page = 0; page < 100_000; page++) {
    const { holds } = await wallet.staleHolds(olderThanSeconds, pageSize, after);
    seen.push(...holds.filter((h) => h.accountId === accountId).map((h) => h.reference));
    if (holds.length < pageSize) break;
    after = holds[holds.length - 1];
  }
  return seen;
}

describe("the wallet's kept totals", () => {
  it('follow entries an operator updates or deletes by hand, counted again per statement', async () => {
    const accountId = `acc_totals_${randomBytes(4).toString('hex')}`;
    const other = `${accountId}_b`;
    const wallet = new WalletService(
      db,
      { dailyMeetingLimit: 100, dailyAskLimit: 100, trialOverdraftMinutes: 0 },
      pool,
    );
    const spend = (acc: string, ref: string) => ({
      accountId: acc,
      reference: `${acc}:${ref}`,
      minutes: 3,
      tokenId: null,
      dailyMinuteCap: null,
      showBalance: false,
    });
    for (const acc of [accountId, other]) {
      await wallet.credit(acc, 50, 'trial', `${acc}:c`);
      for (const ref of ['h1', 'h2', 'h3']) await wallet.hold(spend(acc, ref));
      await wallet.capture(acc, `${acc}:h1`, 2);
      await wallet.release(acc, `${acc}:h2`);
      await wallet.chargeAsk(spend(acc, 'a1'));
    }
    await expectKeptTotals(accountId, 'moved by the service');
    // One statement over both accounts, then one over a closing (its hold opens again).
    await pool.query('update ledger_entry set minutes = minutes + 1 where account_id in ($1, $2) and kind = $3', [
      accountId,
      other,
      'credit',
    ]);
    await pool.query('delete from ledger_entry where reference = $1', [`capture:${accountId}:h1`]);
    await pool.query("delete from ledger_entry where account_id = $1 and kind = 'release'", [other]);
    await expectKeptTotals(accountId, 'after the update and delete');
    await expectKeptTotals(other, 'after the update and delete');
    expect(await wallet.summary(accountId, null)).toMatchObject({ balanceMinutes: 51 - 3 });
    // The deleted capture opened h1 again (h3 was open): the reconciler sees both once they are old.
    expect((await staleHoldsOf(wallet, accountId, 0, 500)).sort()).toEqual([`${accountId}:h1`, `${accountId}:h3`]);
  });
});

describe('stale holds (for the recordings service reconciler)', () => {
  it('pages through every open hold older than asked, each once, leaving out closed and recent ones', async () => {
    const accountId = `acc_stale_${randomBytes(4).toString('hex')}`;
    const wallet = new WalletService(
      db,
      { dailyMeetingLimit: 100, dailyAskLimit: 100, trialOverdraftMinutes: 0 },
      pool,
    );
    await wallet.credit(accountId, 100, 'grant', `${accountId}:c`);
    const old = new Date(Date.now() - 3 * 3600 * 1000);
    const hold = (ref: string, clock?: Date) =>
      wallet.hold(
        {
          accountId,
          reference: `${accountId}:${ref}`,
          minutes: 1,
          tokenId: null,
          dailyMinuteCap: null,
          showBalance: false,
        },
        clock,
      );
    // Five at the very same moment (the page key must tell them apart), one closed, one recent.
    for (const ref of ['a', 'b', 'c', 'd', 'e', 'closed']) await hold(ref, old);
    await wallet.release(accountId, `${accountId}:closed`);
    await hold('recent');

    const seen = await staleHoldsOf(wallet, accountId, 3600, 2);
    expect(seen.sort()).toEqual(['a', 'b', 'c', 'd', 'e'].map((r) => `${accountId}:${r}`));
  });
});
