import { Redis } from 'ioredis';
import { Client } from 'pg';
import { KEPT_UNTIL_HEADER, PRINCIPAL_HEADER, principalKey, signPrincipal, WALLET_VERSION_HEADER, WALLETS_VERSION_KEY, walletVersionKey, walletVersionOf } from '@mm/http';
import { loadConfig as accountConfig } from '../../services/account/src/config';
import { startStack, type Stack } from '../support/stack';

// whoami's answers kept at the gateway (services/gateway/src/services/kept-answers.ts): given again
// only while the account's wallet version in Redis holds, never across a token's access change,
// never to another token. The proof that an answer was given from the gateway is that it still
// comes while the account service is stopped.

const whoami = (stack: Stack, token: string) => stack.api.get('/api/v1/whoami').set('Authorization', `Bearer ${token}`);

describe('whoami kept at the gateway', () => {
  let stack: Stack;
  let redis: Redis;
  beforeAll(async () => {
    stack = await startStack();
    redis = new Redis(stack.env.REDIS_URL ?? 'redis://127.0.0.1:6379', { keyPrefix: stack.busNamespace });
  });
  afterAll(async () => {
    redis.disconnect();
    await stack.stop();
  });

  it('never shows the mark to the client, and gives each token its own answer', async () => {
    const account = await stack.admin.account({ balanceMinutes: 40 });
    const a = await stack.admin.token(account.id, ['account:read'], { name: 'a' });
    const b = await stack.admin.token(account.id, ['recordings:read'], { name: 'b' });
    for (let round = 0; round < 3; round++) {
      const [ra, rb] = [await whoami(stack, a.value), await whoami(stack, b.value)];
      expect(ra.status).toBe(200);
      expect(rb.status).toBe(200);
      expect(ra.headers[KEPT_UNTIL_HEADER]).toBeUndefined();
      expect(Object.keys(ra.headers).filter((h) => h.startsWith('x-mm-'))).toEqual([]);
      expect(ra.headers['x-request-id']).toMatch(/^[\w-]+$/);
      expect(ra.body.token).toMatchObject({ id: a.id, name: 'a' });
      expect(ra.body.wallet).toEqual({ balanceMinutes: 40 });
      expect(rb.body.token).toMatchObject({ id: b.id, name: 'b' });
      expect(rb.body.wallet).toBeNull();
    }
  });

  it('sets a new wallet version before a money move is answered', async () => {
    const account = await stack.admin.account({ balanceMinutes: 5 });
    const token = await stack.admin.token(account.id, ['account:read']);
    expect((await whoami(stack, token.value)).body.wallet.balanceMinutes).toBe(5);
    const before = await redis.get(walletVersionKey(account.id));
    expect(before).toMatch(/^[\w-]{36}$/);
    expect((await stack.admin.minutes(account.id, 7)).status).toBe(200);
    const after = await redis.get(walletVersionKey(account.id));
    expect(after).not.toBe(before);
    expect((await whoami(stack, token.value)).body.wallet.balanceMinutes).toBe(12);
  });

  it('leaves a query to the account service to refuse, though the answer was kept', async () => {
    const account = await stack.admin.account();
    const token = await stack.admin.token(account.id, ['account:read']);
    expect((await whoami(stack, token.value)).status).toBe(200);
    expect((await whoami(stack, token.value)).status).toBe(200);
    const res = await stack.api.get('/api/v1/whoami?verbose=1').set('Authorization', `Bearer ${token.value}`);
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('VALIDATION');
  });

  it('refuses a revoked token at once, though its answer was kept', async () => {
    const account = await stack.admin.account();
    const token = await stack.admin.token(account.id, ['account:read']);
    expect((await whoami(stack, token.value)).status).toBe(200);
    expect((await whoami(stack, token.value)).status).toBe(200);
    expect((await stack.admin.revoke(token.id)).status).toBeLessThan(300);
    const res = await whoami(stack, token.value);
    expect(res.status).toBe(401);
    expect(res.body.error.code).toBe('TOKEN_INVALID');
  });

  it('is marked keepable by the account only under the wallet version its own Redis shows', async () => {
    const account = await stack.admin.account();
    const token = await stack.admin.token(account.id, ['account:read']);
    // Through the gateway once: its gate sets the versions when they are missing.
    expect((await whoami(stack, token.value)).status).toBe(200);
    const principal = await signPrincipal(principalKey(accountConfig(stack.env).internalJwtSecret), {
      accountId: account.id,
      displayName: null,
      source: 'token',
      tokenId: token.id,
      tokenName: 'test',
      tokenExpiresAt: null,
      scopes: ['account:read'],
      dailyMinuteCap: null,
      features: { series: true, ask: true, videoUpload: false, memory: true },
    });
    const direct = (headers: Record<string, string>) => fetch(`${stack.serviceUrls.account}/whoami`, { headers: { [PRINCIPAL_HEADER]: principal, ...headers } });
    const current = walletVersionOf((await redis.get(walletVersionKey(account.id)))!, (await redis.get(WALLETS_VERSION_KEY))!);
    const marked = await direct({ [WALLET_VERSION_HEADER]: current });
    expect(marked.status).toBe(200);
    const until = Number(marked.headers.get(KEPT_UNTIL_HEADER));
    expect(until).toBeGreaterThan(Date.now());
    expect(until).toBeLessThanOrEqual(Date.now() + 10_000);
    // A gateway on another Redis (or one that read before a change) gets an answer it may not keep.
    expect((await direct({ [WALLET_VERSION_HEADER]: 'other/version' })).headers.get(KEPT_UNTIL_HEADER)).toBeNull();
    // A caller that would not keep it is not told.
    expect((await direct({})).headers.get(KEPT_UNTIL_HEADER)).toBeNull();
  });

  it('answers from the gateway while the account is away, until the wallet version moves', async () => {
    const account = await stack.admin.account({ balanceMinutes: 21 });
    const kept = await stack.admin.token(account.id, ['account:read']);
    const never = await stack.admin.token(account.id, ['account:read']);
    const first = await whoami(stack, kept.value);
    expect(first.status).toBe(200);
    // The first answer is kept under the version the gateway read with it; the second one proves
    // the token's account is known (the version is read only for a token seen before).
    expect((await whoami(stack, kept.value)).status).toBe(200);

    await stack.services.account.close();
    const given = await whoami(stack, kept.value);
    expect(given.status).toBe(200);
    expect(given.body).toEqual(first.body);
    // A token never answered has nothing kept: it needs the account, which is gone.
    expect((await whoami(stack, never.value)).status).toBe(500);

    // A change of the account's wallet (made by hand here: the account service is stopped) with
    // its version set, as the account service does after every ledger commit.
    const db = new Client({ connectionString: stack.env.DATABASE_URL });
    await db.connect();
    await db.query("insert into account.ledger_entry (account_id, kind, credit_kind, minutes, reference) values ($1, 'credit', 'grant', 8, $2)", [account.id, `manual:${account.id}`]);
    await db.end();
    await redis.set(walletVersionKey(account.id), 'moved');
    const after = await whoami(stack, kept.value);
    expect(after.status).toBe(500);
    expect(after.body.error.code).toBe('INTERNAL_ERROR');
  }, 30_000);
});

describe('whoami with keeping turned off (GATEWAY_KEEP_WHOAMI=false)', () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await startStack({ GATEWAY_KEEP_WHOAMI: 'false' });
  });
  afterAll(async () => {
    await stack.stop();
  });

  it('asks the account service every time', async () => {
    const account = await stack.admin.account();
    const token = await stack.admin.token(account.id, ['account:read']);
    expect((await whoami(stack, token.value)).status).toBe(200);
    expect((await whoami(stack, token.value)).status).toBe(200);
    await stack.services.account.close();
    expect((await whoami(stack, token.value)).status).toBe(500);
  });
});
