import type { NatsConnection } from 'nats';
import type { Redis } from 'ioredis';
import type { Logger } from 'pino';
import {
  BUS,
  SCOPES,
  SCOPE_SWITCH,
  LIMITS,
  type AdminCreateAccountInput,
  type AdminCreateTokenInput,
  type CreditKind,
} from '@mm/contract';
import { ApiError, newId } from '@mm/http';
import { request, RemoteError } from '@mm/bus';
import type { AccessRepository, AccountView } from '../db/access.repository';
import { generateTokenValue, hashToken } from '../domain/token-value';
import { keptDisplayName } from '../domain/display-name';
import { bumpAccessEpoch } from './access-gate';

/** An account's fields as the admin API's table has them (a change sends some of them). */
export type CreateAccountInput = AdminCreateAccountInput['body'];

export type CreateTokenInput = AdminCreateTokenInput['body'];

const DAY_MS = 24 * 3600 * 1000;

/** Use cases of the admin API on accounts, tokens, minutes and flags. */
export class AccessService {
  constructor(
    private readonly deps: {
      repo: AccessRepository;
      nc: NatsConnection;
      redis: Redis;
      logger: Logger;
      tokenHashKey: string;
    },
  ) {}

  /** The public part of an account as the admin API answers it. */
  private present(a: AccountView) {
    return {
      id: a.id,
      displayName: a.displayName,
      email: a.email,
      developerMode: a.developerMode,
      approved: a.approved,
      trial: a.trial,
      switches: a.switches,
      features: a.features,
    };
  }

  async createAccount(input: CreateAccountInput) {
    const id = newId('acc');
    // Credit first: a failed credit leaves no account behind, and a retried one is idempotent by reference.
    await this.credit(id, input.balanceMinutes ?? 0, input.trial ? 'trial' : 'grant', `admin:initial:${id}`);
    let account = await this.deps.repo.insertAccount({
      id,
      displayName: keptDisplayName(input.displayName) ?? null,
      email: input.email ?? null,
      developerMode: input.developerMode ?? false,
      approved: input.approved ?? true,
      trial: input.trial ?? false,
    });
    if (input.switches || input.features) account = (await this.deps.repo.updateAccount(id, this.patchColumns(input)))!;
    return this.present(account);
  }

  async getAccount(id: string) {
    const account = await this.deps.repo.getAccount(id);
    if (!account) throw new ApiError('NOT_FOUND', 'No such account.');
    return this.present(account);
  }

  async updateAccount(id: string, input: CreateAccountInput) {
    const account = await this.deps.repo.updateAccount(id, this.patchColumns(input));
    if (!account) throw new ApiError('NOT_FOUND', 'No such account.');
    await this.announceAccessChange();
    return this.present(account);
  }

  async buyMinutes(accountId: string, minutes: number, reference?: string) {
    await this.getAccount(accountId);
    return this.credit(
      accountId,
      minutes,
      'purchase',
      reference ? `admin:purchase:${accountId}:${reference}` : `admin:purchase:${newId('pur')}`,
    );
  }

  async createToken(accountId: string, input: CreateTokenInput) {
    const account = await this.deps.repo.getAccount(accountId);
    if (!account) throw new ApiError('NOT_FOUND', 'No such account.');
    const off = input.scopes.find((s) => {
      const sw = SCOPE_SWITCH[s];
      return sw && !account.switches[sw];
    });
    if (off) throw new ApiError('SCOPE_UNAVAILABLE', `Scope ${off} is switched off for this account.`);
    const value = generateTokenValue();
    const scopes = SCOPES.filter((s) => input.scopes.includes(s));
    const expiresAt = input.expiresInDays ? new Date(Date.now() + input.expiresInDays * DAY_MS) : null;
    const row = await this.deps.repo.insertTokenWithinLimit(
      {
        id: newId('tok'),
        accountId,
        name: input.name,
        scopes,
        hash: hashToken(this.deps.tokenHashKey, value),
        dailyMinuteCap: input.dailyMinuteCap ?? null,
        expiresAt,
      },
      LIMITS.activeTokensPerAccount,
    );
    if (row === 'limit')
      throw new ApiError(
        'VALIDATION',
        `An account has at most ${LIMITS.activeTokensPerAccount} active tokens; revoke one first.`,
      );
    // A new token may have been tried (and cached as unknown) before it existed.
    await bumpAccessEpoch(this.deps.redis, this.deps.logger);
    return {
      token: {
        id: row.id,
        name: row.name,
        scopes,
        expiresAt: row.expiresAt ? row.expiresAt.toISOString() : null,
        dailyMinuteCap: row.dailyMinuteCap,
      },
      value,
    };
  }

  async revokeToken(id: string) {
    if (!(await this.deps.repo.revokeToken(id))) throw new ApiError('NOT_FOUND', 'No such token.');
    await this.announceAccessChange();
    return { id, revoked: true as const };
  }

  async setFlags(tokensDisabled: boolean) {
    await this.deps.repo.setTokensDisabled(tokensDisabled);
    await this.announceAccessChange();
    return { tokensDisabled };
  }

  /**
   * A change that takes access away answers 200 only once every replica is told. When Redis
   * cannot be told, the change is kept (it is committed, and a replica trusts a cached token for
   * at most TOKEN_CACHE_MAX_AGE_MS) but the caller gets an error, to repeat the call until it
   * is confirmed (each call is idempotent).
   */
  private async announceAccessChange(): Promise<void> {
    if (!(await bumpAccessEpoch(this.deps.redis, this.deps.logger))) {
      throw new Error(
        'access change saved but not announced to the gateway replicas (Redis unavailable); repeat the call',
      );
    }
  }

  private patchColumns(input: CreateAccountInput) {
    const patch: Record<string, unknown> = {};
    if (input.displayName !== undefined) patch.displayName = keptDisplayName(input.displayName);
    if (input.email !== undefined) patch.email = input.email;
    if (input.developerMode !== undefined) patch.developerMode = input.developerMode;
    if (input.approved !== undefined) patch.approved = input.approved;
    if (input.trial !== undefined) patch.trial = input.trial;
    if (input.switches?.API_WRITE_ENABLED !== undefined) patch.apiWriteEnabled = input.switches.API_WRITE_ENABLED;
    if (input.switches?.API_QUERY_ENABLED !== undefined) patch.apiQueryEnabled = input.switches.API_QUERY_ENABLED;
    if (input.features?.series !== undefined) patch.featureSeries = input.features.series;
    if (input.features?.ask !== undefined) patch.featureAsk = input.features.ask;
    if (input.features?.videoUpload !== undefined) patch.featureVideoUpload = input.features.videoUpload;
    if (input.features?.memory !== undefined) patch.featureMemory = input.features.memory;
    return patch;
  }

  private async credit(
    accountId: string,
    minutes: number,
    kind: CreditKind,
    reference: string,
  ): Promise<{ balanceMinutes: number }> {
    try {
      return await request(this.deps.nc, BUS.walletCredit, { accountId, minutes, kind, reference });
    } catch (err) {
      if (err instanceof RemoteError) throw new ApiError('INTERNAL', `The wallet refused the credit: ${err.message}`);
      throw new ApiError('INTERNAL', 'The wallet did not answer; retry.');
    }
  }
}
