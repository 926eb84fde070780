import { startStack, type Stack } from '../support/stack';
import { EXPECTED_BUDGETS } from '../support/contract-table';
import { PROMPT_REFUSALS, SLOW_REFUSAL_MS } from '../../services/gateway/src/services/access-gate';

const bearer = (v: string) => ({ Authorization: `Bearer ${v}` });

/** One route per rate class, with a scope that admits it. */
const CLASS_ROUTES = {
  read: { method: 'get', path: '/api/v1/whoami', scope: 'recordings:read' },
  submit: { method: 'post', path: '/api/v1/recordings/rec_rate/retry', scope: 'recordings:write' },
  search: { method: 'get', path: '/api/v1/recordings/rec_rate/ask/quote', scope: 'recordings:query' },
  ask: { method: 'post', path: '/api/v1/recordings/rec_rate/ask', scope: 'recordings:query' },
  settings: { method: 'patch', path: '/api/v1/account/settings', scope: 'account:write' },
} as const;

describe('rate limits per token per class', () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await startStack();
  });
  afterAll(async () => {
    await stack.stop();
  });

  async function spend(token: string, cls: keyof typeof CLASS_ROUTES, n: number) {
    const r = CLASS_ROUTES[cls];
    const statuses: number[] = [];
    for (let i = 0; i < n; i++) {
      const res = await stack.api[r.method](r.path)
        .set(bearer(token))
        .send(r.method === 'get' ? undefined : {});
      statuses.push(res.status);
    }
    return statuses;
  }

  it.each(Object.keys(CLASS_ROUTES) as (keyof typeof CLASS_ROUTES)[])(
    'allows exactly the %s budget, then answers 429 RATE_LIMITED with a numeric Retry-After',
    async (cls) => {
      const account = await stack.admin.account();
      const token = await stack.admin.token(account.id, [
        'recordings:read',
        'recordings:write',
        'recordings:query',
        'account:write',
      ]);
      const statuses = await spend(token.value, cls, EXPECTED_BUDGETS[cls]);
      expect(statuses.filter((s) => s === 429)).toEqual([]);
      const r = CLASS_ROUTES[cls];
      const over = await stack.api[r.method](r.path)
        .set(bearer(token.value))
        .send(r.method === 'get' ? undefined : {});
      expect(over.status).toBe(429);
      expect(over.body.error.code).toBe('RATE_LIMITED');
      expect(over.headers['retry-after']).toMatch(/^\d+$/);
      expect(Number(over.headers['retry-after'])).toBeGreaterThan(0);
      expect(Number(over.headers['retry-after'])).toBeLessThanOrEqual(600);
      // Other classes of the same token keep their own budgets.
      const other = cls === 'read' ? 'settings' : 'read';
      expect((await spend(token.value, other, 1))[0]).not.toBe(429);
      // Another token of the same account keeps its own budget.
      const second = await stack.admin.token(account.id, [
        'recordings:read',
        'recordings:write',
        'recordings:query',
        'account:write',
      ]);
      expect((await spend(second.value, cls, 1))[0]).not.toBe(429);
    },
  );
  it('answers a token that keeps sending past its budget slowly, and only that token', async () => {
    const scopes = ['recordings:write'];
    const account = await stack.admin.account();
    const token = await stack.admin.token(account.id, scopes);
    await spend(token.value, 'submit', EXPECTED_BUDGETS.submit);
    const timed = async (value: string) => {
      const started = Date.now();
      const status = (await spend(value, 'submit', 1))[0];
      return { status, ms: Date.now() - started };
    };
    // Refusals a client honouring Retry-After could meet are answered at once...
    for (let i = 0; i < PROMPT_REFUSALS; i++) {
      const r = await timed(token.value);
      expect(r.status).toBe(429);
      expect(r.ms).toBeLessThan(SLOW_REFUSAL_MS);
    }
    // ...the ones after them wait, while another token of the same account is served as before.
    const other = await stack.admin.token(account.id, scopes);
    const [slow, meanwhile] = await Promise.all([timed(token.value), timed(other.value)]);
    expect(slow.status).toBe(429);
    expect(slow.ms).toBeGreaterThanOrEqual(SLOW_REFUSAL_MS - 20);
    expect(meanwhile.status).not.toBe(429);
    expect(meanwhile.ms).toBeLessThan(SLOW_REFUSAL_MS);
  });
});

describe('rate limit per IP address', () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await startStack({ IP_RATE_LIMIT: '40' });
  });
  afterAll(async () => {
    await stack.stop();
  });

  it('answers 429 RATE_LIMITED to every token from an address past its budget', async () => {
    const account = await stack.admin.account();
    const a = await stack.admin.token(account.id, ['recordings:read']);
    const b = await stack.admin.token(account.id, ['recordings:read']);
    const statuses: number[] = [];
    // Other test files may have counted this address already; the budget is small, so spend past it.
    for (let i = 0; i < 45; i++)
      statuses.push((await stack.api.get('/api/v1/whoami').set(bearer(i % 2 ? a.value : b.value))).status);
    expect(statuses).toContain(429);
    const res = await stack.api.get('/api/v1/whoami').set(bearer(a.value));
    expect(res.status).toBe(429);
    expect(res.body.error.code).toBe('RATE_LIMITED');
    expect(res.headers['retry-after']).toMatch(/^\d+$/);
  });
});
