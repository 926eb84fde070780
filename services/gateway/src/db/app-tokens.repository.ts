import { sql, type Kysely } from 'kysely';
import type { Scope } from '@mm/contract';
import type { Database } from './schema';

/** A token as its owner sees it in the app (never its value or hash). */
export interface TokenListItem {
  id: string;
  name: string;
  scopes: Scope[];
  dailyMinuteCap: number | null;
  expiresAt: string | null;
  createdAt: string;
}

/** The app's queries on one account's own tokens. */
export class AppTokensRepository {
  constructor(private readonly db: Kysely<Database>) {}

  /** The account's active tokens (not revoked, not expired), newest first. */
  async listActive(accountId: string): Promise<TokenListItem[]> {
    const rows = await this.db
      .selectFrom('token')
      .select(['id', 'name', 'scopes', 'dailyMinuteCap', 'expiresAt', 'createdAt'])
      .where('accountId', '=', accountId)
      .where('revokedAt', 'is', null)
      .where((eb) => eb.or([eb('expiresAt', 'is', null), eb('expiresAt', '>', sql<Date>`now()`)]))
      .orderBy('createdAt', 'desc')
      .execute();
    return rows.map((r) => ({
      id: r.id,
      name: r.name,
      scopes: r.scopes as Scope[],
      dailyMinuteCap: r.dailyMinuteCap,
      expiresAt: r.expiresAt ? r.expiresAt.toISOString() : null,
      createdAt: r.createdAt.toISOString(),
    }));
  }

  /** Whether the token is the account's own (another account's answers like a missing one). */
  async owns(accountId: string, tokenId: string): Promise<boolean> {
    const row = await this.db
      .selectFrom('token')
      .select('id')
      .where('id', '=', tokenId)
      .where('accountId', '=', accountId)
      .executeTakeFirst();
    return row !== undefined;
  }
}
