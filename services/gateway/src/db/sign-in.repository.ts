import { sql, type Kysely, type Transaction } from 'kysely';
import type { AccountView } from './access.repository';
import { toAccountView } from './access.repository';
import type { Database, SessionRow } from './schema';

/** Rolls back a link's use: its email signs in to another account. */
class EmailTaken extends Error {}

/** A session with the account it signs in. */
export interface SessionWithAccount {
  session: SessionRow;
  account: AccountView;
}

/**
 * Uses up every unused link (invite or reset) of an account: once its password is set or changed,
 * or its email, an older link is no longer the person's way in, and would otherwise set a new
 * password (and end the owner's sessions) for whoever holds it, for as long as it lasts.
 */
async function voidLinks(trx: Transaction<Database>, accountId: string): Promise<void> {
  await trx
    .updateTable('signInLink')
    .set({ usedAt: sql`now()` })
    .where('accountId', '=', accountId)
    .where('usedAt', 'is', null)
    .execute();
}

/** Queries of the app's sign-in: credentials, single-use links, sessions (migration 0004). */
export class SignInRepository {
  constructor(private readonly db: Kysely<Database>) {}

  async insertLink(row: {
    hash: string;
    accountId: string;
    purpose: 'invite' | 'reset';
    expiresAt: Date;
  }): Promise<void> {
    await this.db
      .insertInto('signInLink')
      .values({ ...row, usedAt: null })
      .execute();
  }

  /** The link's account when it is unused and unexpired (not used up: see useLink). */
  async findLink(hash: string, purpose: 'invite' | 'reset'): Promise<{ accountId: string } | null> {
    const row = await this.db
      .selectFrom('signInLink')
      .select('accountId')
      .where('hash', '=', hash)
      .where('purpose', '=', purpose)
      .where('usedAt', 'is', null)
      .where('expiresAt', '>', sql<Date>`now()`)
      .executeTakeFirst();
    return row ?? null;
  }

  async findCredentialByEmail(email: string): Promise<{ accountId: string; passwordHash: string } | null> {
    const row = await this.db
      .selectFrom('credential')
      .select(['accountId', 'passwordHash'])
      .where(sql`lower(email)`, '=', email.toLowerCase())
      .executeTakeFirst();
    return row ?? null;
  }

  async findCredential(accountId: string): Promise<{ email: string; passwordHash: string } | null> {
    const row = await this.db
      .selectFrom('credential')
      .select(['email', 'passwordHash'])
      .where('accountId', '=', accountId)
      .executeTakeFirst();
    return row ?? null;
  }

  /**
   * Uses a link and sets the account's password in one transaction: the link is claimed by an
   * update that only one caller can win, so a link works once. Every session of the account
   * ends (a reset, or a new password). Returns null when the link was already used or expired,
   * 'email_taken' when another account signs in with that email.
   */
  async useLinkAndSetPassword(
    hash: string,
    purpose: 'invite' | 'reset',
    email: string,
    passwordHash: string,
    setAccountEmail = false,
  ): Promise<{ accountId: string } | null | 'email_taken'> {
    try {
      return await this.useLink(hash, purpose, email, passwordHash, setAccountEmail);
    } catch (err) {
      // Two links of accounts without an email, used at once with one email: the unique index decides.
      if (err instanceof EmailTaken || (err as { code?: string }).code === '23505') return 'email_taken';
      throw err;
    }
  }

  /** Uses the link and sets the password in one transaction; refused (rolled back) when the email is another's. */
  private useLink(
    hash: string,
    purpose: 'invite' | 'reset',
    email: string,
    passwordHash: string,
    setAccountEmail: boolean,
  ): Promise<{ accountId: string } | null | 'email_taken'> {
    return this.db.transaction().execute(async (trx) => {
      const link = await trx
        .updateTable('signInLink')
        .set({ usedAt: sql`now()` })
        .where('hash', '=', hash)
        .where('purpose', '=', purpose)
        .where('usedAt', 'is', null)
        .where('expiresAt', '>', sql<Date>`now()`)
        .returning('accountId')
        .executeTakeFirst();
      if (!link) return null;
      const other = await trx
        .selectFrom('credential')
        .select('accountId')
        .where(sql`lower(email)`, '=', email.toLowerCase())
        .where('accountId', '!=', link.accountId)
        .executeTakeFirst();
      // Thrown, not returned: the link is not used up by a refusal the person can correct.
      if (other) throw new EmailTaken();
      await trx
        .insertInto('credential')
        .values({ accountId: link.accountId, email, passwordHash })
        .onConflict((oc) => oc.column('accountId').doUpdateSet({ email, passwordHash, updatedAt: sql`now()` }))
        .execute();
      // The email the person gave on an invite made without one is the account's too (summaries).
      if (setAccountEmail)
        await trx
          .updateTable('account')
          .set({ email })
          .where('id', '=', link.accountId)
          .where('email', 'is', null)
          .execute();
      await trx
        .updateTable('session')
        .set({ endedAt: sql`now()` })
        .where('accountId', '=', link.accountId)
        .where('endedAt', 'is', null)
        .execute();
      await voidLinks(trx, link.accountId);
      return { accountId: link.accountId };
    });
  }

  /**
   * A new email for a signed-in account: the sign-in credential's and the account's (where the
   * service writes to), together. 'email_taken' when another account signs in with it (checked
   * here, and kept by the unique index when two changes race).
   */
  async changeEmail(accountId: string, email: string): Promise<'changed' | 'email_taken'> {
    try {
      return await this.db.transaction().execute(async (trx) => {
        const other = await trx
          .selectFrom('credential')
          .select('accountId')
          .where(sql`lower(email)`, '=', email.toLowerCase())
          .where('accountId', '!=', accountId)
          .executeTakeFirst();
        if (other) return 'email_taken' as const;
        await trx
          .updateTable('credential')
          .set({ email, updatedAt: sql`now()` })
          .where('accountId', '=', accountId)
          .execute();
        await trx.updateTable('account').set({ email }).where('id', '=', accountId).execute();
        // A link mailed to the old address must not set a password for the new one's owner.
        await voidLinks(trx, accountId);
        return 'changed' as const;
      });
    } catch (err) {
      if ((err as { code?: string }).code === '23505') return 'email_taken';
      throw err;
    }
  }

  /** A new password for a signed-in account: every other session ends. */
  async changePassword(accountId: string, passwordHash: string, keepSessionId: string): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      await trx
        .updateTable('credential')
        .set({ passwordHash, updatedAt: sql`now()` })
        .where('accountId', '=', accountId)
        .execute();
      await trx
        .updateTable('session')
        .set({ endedAt: sql`now()` })
        .where('accountId', '=', accountId)
        .where('id', '!=', keepSessionId)
        .where('endedAt', 'is', null)
        .execute();
      await voidLinks(trx, accountId);
    });
  }

  async insertSession(row: {
    id: string;
    hash: string;
    accountId: string;
    csrfToken: string;
    device: string;
    expiresAt: Date;
  }): Promise<void> {
    await this.db
      .insertInto('session')
      .values({ ...row, endedAt: null })
      .execute();
  }

  async findSession(hash: string): Promise<SessionWithAccount | null> {
    const row = await this.db
      .selectFrom('session')
      .innerJoin('account', 'account.id', 'session.accountId')
      .selectAll('account')
      .select([
        'session.id as sessionId',
        'session.hash',
        'session.accountId as sessionAccountId',
        'session.csrfToken',
        'session.device',
        'session.createdAt as sessionCreatedAt',
        'session.lastSeenAt',
        'session.expiresAt',
        'session.endedAt',
      ])
      .where('session.hash', '=', hash)
      .executeTakeFirst();
    if (!row) return null;
    return {
      account: toAccountView(row),
      session: {
        id: row.sessionId,
        hash: row.hash,
        accountId: row.sessionAccountId,
        csrfToken: row.csrfToken,
        device: row.device,
        createdAt: row.sessionCreatedAt,
        lastSeenAt: row.lastSeenAt,
        expiresAt: row.expiresAt,
        endedAt: row.endedAt,
      },
    };
  }

  async touchSession(id: string): Promise<void> {
    await this.db.updateTable('session').set({ lastSeenAt: sql`now()` }).where('id', '=', id).execute();
  }

  async endSession(id: string): Promise<void> {
    await this.db
      .updateTable('session')
      .set({ endedAt: sql`now()` })
      .where('id', '=', id)
      .where('endedAt', 'is', null)
      .execute();
  }

  /** Ends every session of the account but one; answers how many ended. */
  async endOtherSessions(accountId: string, keepId: string): Promise<number> {
    const res = await this.db
      .updateTable('session')
      .set({ endedAt: sql`now()` })
      .where('accountId', '=', accountId)
      .where('id', '!=', keepId)
      .where('endedAt', 'is', null)
      .executeTakeFirst();
    return Number(res.numUpdatedRows);
  }

  /** The account's live sessions, most recently seen first. */
  async listSessions(accountId: string, idleSince: Date): Promise<SessionRow[]> {
    return this.db
      .selectFrom('session')
      .selectAll()
      .where('accountId', '=', accountId)
      .where('endedAt', 'is', null)
      .where('expiresAt', '>', sql<Date>`now()`)
      .where('lastSeenAt', '>', idleSince)
      .orderBy('lastSeenAt', 'desc')
      .limit(100)
      .execute();
  }
}
