/** The few admin API calls a bench needs (POST /admin/v1/accounts, .../tokens), through the gateway. */
import type { Principal } from '@mm/http';
import { BenchError } from './types';
import { BENCH_ADMIN_KEY } from './stack';

export interface BenchAccount {
  id: string;
  displayName: string | null;
  features: { series: boolean; ask: boolean; videoUpload: boolean; memory: boolean };
}

export interface BenchToken {
  id: string;
  name: string;
  scopes: string[];
  expiresAt: string | null;
  dailyMinuteCap: number | null;
  /** The secret value, shown once. */
  value: string;
}

async function post<T>(gatewayUrl: string, path: string, body: unknown): Promise<T> {
  const res = await fetch(`${gatewayUrl}/admin/v1${path}`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${BENCH_ADMIN_KEY}`, 'Content-Type': 'application/json' },
    body: JSON.stringify(body),
    signal: AbortSignal.timeout(10_000),
  });
  const text = await res.text();
  if (res.status !== 201) throw new BenchError(`POST /admin/v1${path} answered ${res.status}: ${text}`);
  return JSON.parse(text) as T;
}

export async function createAccount(gatewayUrl: string, body: Record<string, unknown>): Promise<BenchAccount> {
  const { account } = await post<{ account: BenchAccount }>(gatewayUrl, '/accounts', body);
  return account;
}

export async function createToken(
  gatewayUrl: string,
  accountId: string,
  body: { name: string; scopes: string[]; expiresInDays?: number },
): Promise<BenchToken> {
  const r = await post<{ token: Omit<BenchToken, 'value'>; value: string }>(
    gatewayUrl,
    `/accounts/${accountId}/tokens`,
    body,
  );
  return { ...r.token, value: r.value };
}

/** The principal the gateway would forward for this token (same fields, so a service does the same work). */
export function principalFor(account: BenchAccount, token: BenchToken): Principal {
  return {
    accountId: account.id,
    displayName: account.displayName,
    source: 'token',
    tokenId: token.id,
    tokenName: token.name,
    tokenExpiresAt: token.expiresAt,
    scopes: token.scopes as Principal['scopes'],
    dailyMinuteCap: token.dailyMinuteCap,
    features: account.features,
  };
}
