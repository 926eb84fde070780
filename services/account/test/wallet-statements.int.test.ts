import { randomBytes } from 'node:crypto';
import { sql, type Kysely } from 'kysely';
import type { Pool } from 'pg';
import { migrateSchema, openDatabase } from '@mm/db';
import { migrations } from '../migrations';
import type { Database } from '../src/db/schema';
import { WalletService } from '../src/services/wallet.service';

/**
 * Every money move's statements are prepared: parsed by Postgres once per connection and planned
 * by its rule for prepared statements (a generic plan once it is not worse), not built, parsed and
 * planned again on each move (a hold's reads cost Postgres 0.75 ms of planning for the ledger's
 * figures alone: docs/decisions.md, session 31). Which plan Postgres keeps depends on the data
 * (the test database holds every test's ledger), so only the statements and their runs are
 * checked. One connection, so every statement of the moves runs on the one whose are read.
 */
const DATABASE_URL = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/meeting_memory_test';
const MOVES = 12;

let db: Kysely<Database>;
let pool: Pool;
beforeAll(async () => {
  await migrateSchema(DATABASE_URL, 'account', migrations);
  ({ db, pool } = openDatabase<Database>({ url: DATABASE_URL, schema: 'account', poolSize: 1 }));
});
afterAll(async () => {
  await db.destroy();
});

/** Runs and plans of the prepared statements whose text has `like`, on the pool's one connection. */
async function plans(like: string): Promise<{ statements: number; generic: number; custom: number }> {
  const { rows } = await sql<{ statements: string; generic: string | null; custom: string | null }>`
    select count(*) as statements, sum(generic_plans) as generic, sum(custom_plans) as custom
    from pg_prepared_statements where statement like ${like}`.execute(db);
  return { statements: Number(rows[0].statements), generic: Number(rows[0].generic), custom: Number(rows[0].custom) };
}

describe("the wallet's money moves", () => {
  it('run their reads as prepared statements, one per read: holds, Ask charges, captures', async () => {
    const run = randomBytes(4).toString('hex');
    const accountId = `acc_stmt_${run}`;
    const wallet = new WalletService(
      db,
      { dailyMeetingLimit: 1000, dailyAskLimit: 1000, trialOverdraftMinutes: 0 },
      pool,
    );
    await wallet.credit(accountId, 10_000, 'purchase', `credit:${run}`);
    const spend = (i: number) => ({
      accountId,
      reference: `${run}:${i}`,
      minutes: 2,
      tokenId: `tok_stmt_${run}`,
      dailyMinuteCap: 5_000,
      showBalance: true,
    });
    for (let i = 0; i < MOVES; i++) {
      expect(await wallet.hold(spend(i))).toEqual({ held: true, replay: false });
      expect(await wallet.chargeAsk(spend(i))).toEqual({ charged: true, replay: false });
      expect(await wallet.capture(accountId, spend(i).reference, 1)).toEqual({ captured: true });
    }
    // Each read, run on every move of its kind (plus the credit's), is one named statement.
    const moves = MOVES * 2;
    const expectations: Array<[string, string, number]> = [
      [
        'the ledger figures (the totals the wallet keeps)',
        '%"held" - "held_closed"%from "wallet" where "account_id" = $1%',
        moves,
      ],
      ['the daily count', '%count(*) as "n"%"forced" = $%', moves],
      ['the token spends', '%select "minutes", "created_at" from "ledger_entry" where "token_id" = $1%', moves],
      ['the wallet lock', '%from "wallet" where "account_id" = $1 for update%', MOVES * 3 + 1],
    ];
    for (const [what, like, runs] of expectations) {
      const p = await plans(like);
      expect({ what, statements: p.statements, runs: p.generic + p.custom >= runs }).toEqual({
        what,
        statements: 1,
        runs: true,
      });
    }
    // The reference lookups (a replayed move answers from them) and the capture's closing entry.
    const byReference = await plans('%from "ledger_entry" where "reference" = $1');
    expect(byReference.statements).toBe(1);
    expect(byReference.generic + byReference.custom).toBeGreaterThanOrEqual(MOVES * 3);
    const closing = await plans('%from "ledger_entry" where "hold_reference" = $1%');
    expect(closing.statements).toBe(1);
    expect(closing.generic + closing.custom).toBeGreaterThanOrEqual(MOVES);
  });
});
