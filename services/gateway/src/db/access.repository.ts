import { sql, type Kysely } from 'kysely';
import type { AdminGetAccountOutput, Scope } from '@mm/contract';
import type { TokenState } from '../domain/checks';
import type { AccountRow, Database, TokenRow } from './schema';

/** A token as the gateway checks it, with what its principal needs. */
export interface ResolvedToken extends TokenState {
  accountId: string;
  displayName: string | null;
  name: string;
  dailyMinuteCap: number | null;
  features: { series: boolean; ask: boolean; videoUpload: boolean; memory: boolean };
}

/** An account as the admin API answers it (the contract's admin table). */
export type AccountView = AdminGetAccountOutput['account'];

export function toAccountView(row: AccountRow): AccountView {
  return {
    id: row.id,
    displayName: row.displayName,
    email: row.email,
    developerMode: row.developerMode,
    approved: row.approved,
    trial: row.trial,
    switches: { API_WRITE_ENABLED: row.apiWriteEnabled, API_QUERY_ENABLED: row.apiQueryEnabled },
    features: {
      series: row.featureSeries,
      ask: row.featureAsk,
      videoUpload: row.featureVideoUpload,
      memory: row.featureMemory,
    },
  };
}

export class AccessRepository {
  constructor(private readonly db: Kysely<Database>) {}

  /** One query for many hashes (the gate's misses of one turn): each token found with its account, by hash. */
  async findTokensByHashes(hashes: readonly string[]): Promise<Map<string, ResolvedToken>> {
    const rows = await this.db
      .selectFrom('token')
      .innerJoin('account', 'account.id', 'token.accountId')
      .selectAll('account')
      .select([
        'token.hash',
        'token.id as tokenId',
        'token.name as tokenName',
        'token.scopes',
        'token.expiresAt',
        'token.revokedAt',
        'token.dailyMinuteCap',
      ])
      .where('token.hash', 'in', hashes)
      .execute();
    const found = new Map<string, ResolvedToken>();
    for (const row of rows) {
      const account = toAccountView(row);
      found.set(row.hash, {
        tokenId: row.tokenId,
        name: row.tokenName,
        scopes: row.scopes as Scope[],
        expiresAt: row.expiresAt,
        revoked: row.revokedAt !== null,
        dailyMinuteCap: row.dailyMinuteCap,
        accountId: account.id,
        displayName: account.displayName,
        features: account.features,
        account: { developerMode: account.developerMode, approved: account.approved, switches: account.switches },
      });
    }
    return found;
  }

  /** The version of the whole access state (migration 0003): one indexed row, no join. */
  async accessVersion(): Promise<string> {
    const row = await this.db
      .selectFrom('accessVersion')
      .select('version')
      .where('id', '=', 1)
      .executeTakeFirstOrThrow();
    return String(row.version);
  }

  async tokensDisabled(): Promise<boolean> {
    const row = await this.db.selectFrom('flag').select('value').where('key', '=', 'tokensDisabled').executeTakeFirst();
    return row?.value === true;
  }

  async setTokensDisabled(value: boolean): Promise<void> {
    await this.db
      .insertInto('flag')
      .values({ key: 'tokensDisabled', value: JSON.stringify(value) })
      .onConflict((oc) => oc.column('key').doUpdateSet({ value: JSON.stringify(value) }))
      .execute();
  }

  async getAccount(id: string): Promise<AccountView | null> {
    const row = await this.db.selectFrom('account').selectAll().where('id', '=', id).executeTakeFirst();
    return row ? toAccountView(row) : null;
  }

  async insertAccount(row: {
    id: string;
    displayName: string | null;
    email: string | null;
    developerMode: boolean;
    approved: boolean;
    trial: boolean;
  }): Promise<AccountView> {
    const inserted = await this.db.insertInto('account').values(row).returningAll().executeTakeFirstOrThrow();
    return toAccountView(inserted);
  }

  async updateAccount(id: string, patch: Partial<Omit<AccountRow, 'id' | 'createdAt'>>): Promise<AccountView | null> {
    if (Object.keys(patch).length === 0) return this.getAccount(id);
    const row = await this.db.updateTable('account').set(patch).where('id', '=', id).returningAll().executeTakeFirst();
    return row ? toAccountView(row) : null;
  }

  /**
   * Inserts a token unless the account already has `maxActive` active ones. The account row is
   * locked so that concurrent creations cannot pass the count together.
   */
  async insertTokenWithinLimit(
    row: Omit<TokenRow, 'createdAt' | 'revokedAt'>,
    maxActive: number,
  ): Promise<TokenRow | 'limit'> {
    return this.db.transaction().execute(async (trx) => {
      await trx.selectFrom('account').select('id').where('id', '=', row.accountId).forUpdate().executeTakeFirst();
      const { n } = await trx
        .selectFrom('token')
        .select((eb) => eb.fn.countAll<string>().as('n'))
        .where('accountId', '=', row.accountId)
        .where('revokedAt', 'is', null)
        .where((eb) => eb.or([eb('expiresAt', 'is', null), eb('expiresAt', '>', sql<Date>`now()`)]))
        .executeTakeFirstOrThrow();
      if (Number(n) >= maxActive) return 'limit' as const;
      return trx.insertInto('token').values(row).returningAll().executeTakeFirstOrThrow();
    });
  }

  async revokeToken(id: string): Promise<boolean> {
    const res = await this.db
      .updateTable('token')
      .set({ revokedAt: sql`coalesce(revoked_at, now())` })
      .where('id', '=', id)
      .executeTakeFirst();
    return Number(res.numUpdatedRows) > 0;
  }
}
