import Ajv from 'ajv';
import { APP_INTERNAL_ROUTES, APP_PURCHASE_PACKS } from '@mm/contract';
import { PRINCIPAL_HEADER } from '@mm/http';
import { principalFor } from '../support/app-principal';
import { startStack, type Stack } from '../support/stack';

/**
 * The app's wallet sells packs of minutes where the install says so (APP_PURCHASES=direct on the
 * account service); by default it sells none and the route is not found. Only the app's principal
 * buys, one of the packs, and a purchase's key makes a form sent twice (or at once) one purchase.
 */
const route = (id: string) => APP_INTERNAL_ROUTES.find((r) => r.operationId === id)!;
const wallet = route('appGetWallet');
const buy = route('appBuyMinutes');
const ajv = new Ajv({ strict: false });
const walletValid = ajv.compile(wallet.responses[0]!.schema);
const boughtValid = ajv.compile(buy.responses[0]!.schema);

const principalOf = (stack: Stack, accountId: string, source: 'app' | 'token' = 'app') =>
  principalFor(stack, accountId, source, { scopes: ['account:read', 'account:write'] });

const getWallet = async (stack: Stack, principal: string) => {
  const res = await fetch(`${stack.serviceUrls.account}${wallet.path}`, { headers: { [PRINCIPAL_HEADER]: principal } });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
};
const purchase = async (stack: Stack, principal: string, body: unknown, key: string | null) => {
  const res = await fetch(`${stack.serviceUrls.account}${buy.path}`, {
    method: 'POST',
    headers: {
      [PRINCIPAL_HEADER]: principal,
      'content-type': 'application/json',
      ...(key === null ? {} : { 'idempotency-key': key }),
    },
    body: JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as { balanceMinutes?: number; error?: { code: string } } };
};
const balance = async (stack: Stack, principal: string) =>
  (await getWallet(stack, principal)).body.balanceMinutes as number;

describe('the app wallet where the install sells minutes (APP_PURCHASES=direct)', () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await startStack({ APP_PURCHASES: 'direct' });
  }, 60_000);
  afterAll(async () => {
    await stack?.stop();
  });

  it('offers the packs, credits a bought one as a purchase, and buys once per key, even sent at once', async () => {
    const account = await stack.admin.account({ balanceMinutes: 10 });
    const app = await principalOf(stack, account.id);
    const w = await getWallet(stack, app);
    expect(w.status).toBe(200);
    expect(walletValid(w.body)).toBe(true);
    expect(w.body.purchasePacks).toEqual([...APP_PURCHASE_PACKS]);

    const first = await purchase(stack, app, { minutes: 60 }, 'form-key-0000000000000001');
    expect(first.status).toBe(200);
    expect(boughtValid(first.body)).toBe(true);
    expect(first.body.balanceMinutes).toBe(70);
    // The same key again, and five times at once with another: one purchase each.
    expect((await purchase(stack, app, { minutes: 60 }, 'form-key-0000000000000001')).body.balanceMinutes).toBe(70);
    const burst = await Promise.all(
      Array.from({ length: 5 }, () => purchase(stack, app, { minutes: 300 }, 'form-key-0000000000000002')),
    );
    expect(burst.map((r) => r.status)).toEqual([200, 200, 200, 200, 200]);
    expect(await balance(stack, app)).toBe(370);
    const entries = (await getWallet(stack, app)).body.entries as { creditKind: string | null; minutes: number }[];
    expect(entries.filter((e) => e.creditKind === 'purchase').map((e) => e.minutes)).toEqual([300, 60]);
  });

  it('refuses a size it does not sell, a missing or malformed key, and a token', async () => {
    const account = await stack.admin.account({ balanceMinutes: 10 });
    const app = await principalOf(stack, account.id);
    const refused = [
      await purchase(stack, app, { minutes: 61 }, 'form-key-0000000000000003'),
      await purchase(stack, app, { minutes: 60, extra: 1 }, 'form-key-0000000000000003'),
      await purchase(stack, app, { minutes: 60 }, null),
      await purchase(stack, app, { minutes: 60 }, 'short'),
    ];
    expect(refused.map((r) => [r.status, r.body.error?.code])).toEqual([
      [400, 'VALIDATION'],
      [400, 'VALIDATION'],
      [400, 'VALIDATION'],
      [400, 'VALIDATION'],
    ]);
    const token = await purchase(
      stack,
      await principalOf(stack, account.id, 'token'),
      { minutes: 60 },
      'form-key-0000000000000004',
    );
    expect([token.status, token.body.error?.code]).toEqual([401, 'TOKEN_NOT_ACCEPTED']);
    expect(await balance(stack, app)).toBe(10);
  });
});

describe('the app wallet by default: the operator adds minutes', () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await startStack();
  }, 60_000);
  afterAll(async () => {
    await stack?.stop();
  });

  it('offers no pack and refuses a purchase as not found, buying nothing', async () => {
    const account = await stack.admin.account({ balanceMinutes: 10 });
    const app = await principalOf(stack, account.id);
    const w = await getWallet(stack, app);
    expect(walletValid(w.body)).toBe(true);
    expect(w.body.purchasePacks).toEqual([]);
    const r = await purchase(stack, app, { minutes: 60 }, 'form-key-0000000000000005');
    expect([r.status, r.body.error?.code]).toEqual([404, 'NOT_FOUND']);
    expect(await balance(stack, app)).toBe(10);
  });
});
