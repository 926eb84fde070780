import { AsyncLocalStorage } from 'node:async_hooks';
import { sql, type Kysely, type Transaction } from 'kysely';
import type { Database } from './schema';

export type Tx = Transaction<Database>;

const inside = new AsyncLocalStorage<true>();

/**
 * Runs `fn` in one transaction: the only way recordings opens one. No request to another
 * service, no store write and no wallet call may happen in `fn` (they are prepared before or
 * done after the commit): a row lock held across a 10 s timeout stalls every writer of that
 * meeting. `insideTransaction` tells, for the test that checks exactly that.
 */
export function inTransaction<T>(db: Kysely<Database>, fn: (trx: Tx) => Promise<T>): Promise<T> {
  return db.transaction().execute((trx) => inside.run(true, () => fn(trx)));
}

/** Whether the caller runs inside `inTransaction`'s callback. */
export function insideTransaction(): boolean {
  return inside.getStore() === true;
}

/** The readiness probe's question to the database. */
export async function databaseAnswers(db: Kysely<Database>): Promise<void> {
  await sql`select 1`.execute(db);
}
