import request from 'supertest';
import type { Running } from '@mm/http';
import { loadConfig as gatewayConfig } from '../../services/gateway/src/config';
import { startGateway } from '../../services/gateway/src/main';
import { loadConfig as accountConfig } from '../../services/account/src/config';
import { startAccount } from '../../services/account/src/main';

export const ADMIN_KEY = 'test-admin-key';

export interface Stack {
  /** The gateway's base URL (no trailing slash). */
  url: string;
  api: ReturnType<typeof request>;
  stop(): Promise<void>;
  admin: AdminClient;
}

/**
 * Starts the services in this process on free ports, wired like production: the gateway in
 * front, real Postgres, Redis and NATS behind. `env` overrides configuration (rate budgets, limits).
 */
export async function startStack(env: Record<string, string> = {}): Promise<Stack> {
  const base: NodeJS.ProcessEnv = { ...process.env, LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'silent', ADMIN_API_KEY: ADMIN_KEY, ...env };
  const running: Running[] = [];
  const account = await startAccount({ ...accountConfig(base), port: 0 });
  running.push(account);
  const cfg = gatewayConfig(base);
  const gateway = await startGateway({
    ...cfg,
    port: 0,
    serviceUrls: { ...cfg.serviceUrls, account: `http://127.0.0.1:${account.port}` },
  });
  running.push(gateway);
  const url = `http://127.0.0.1:${gateway.port}`;
  const api = request(url);
  return {
    url,
    api,
    admin: new AdminClient(url),
    stop: async () => {
      for (const r of running.reverse()) await r.close();
    },
  };
}

export interface TestAccount {
  id: string;
}

export interface TestToken {
  id: string;
  value: string;
}

/** The admin API, as tests outside the project use it (ARCHITECTURE.md section 7). */
export class AdminClient {
  private readonly api: ReturnType<typeof request>;
  constructor(url: string) {
    this.api = request(url);
  }

  private auth = { Authorization: `Bearer ${ADMIN_KEY}` };

  async account(body: Record<string, unknown> = {}): Promise<TestAccount> {
    const res = await this.api.post('/admin/v1/accounts').set(this.auth).send({ developerMode: true, balanceMinutes: 1000, ...body });
    if (res.status !== 201) throw new Error(`account: ${res.status} ${JSON.stringify(res.body)}`);
    return res.body.account;
  }

  async patchAccount(id: string, body: Record<string, unknown>) {
    const res = await this.api.patch(`/admin/v1/accounts/${id}`).set(this.auth).send(body);
    if (res.status !== 200) throw new Error(`patch: ${res.status} ${JSON.stringify(res.body)}`);
    return res.body.account;
  }

  async token(accountId: string, scopes: string[], extra: Record<string, unknown> = {}): Promise<TestToken> {
    const res = await this.api.post(`/admin/v1/accounts/${accountId}/tokens`).set(this.auth).send({ name: 'test', scopes, ...extra });
    if (res.status !== 201) throw new Error(`token: ${res.status} ${JSON.stringify(res.body)}`);
    return { id: res.body.token.id, value: res.body.value };
  }

  async revoke(tokenId: string) {
    return this.api.delete(`/admin/v1/tokens/${tokenId}`).set(this.auth);
  }

  async flags(tokensDisabled: boolean) {
    return this.api.put('/admin/v1/flags').set(this.auth).send({ tokensDisabled });
  }

  async minutes(accountId: string, minutes: number) {
    return this.api.post(`/admin/v1/accounts/${accountId}/minutes`).set(this.auth).send({ minutes });
  }

  raw() {
    return { api: this.api, auth: this.auth };
  }
}
