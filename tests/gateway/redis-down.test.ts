import { serviceRegistry } from '@mm/http';
import { startStack, type Stack } from '../support/stack';

/**
 * The written decision (docs/decisions.md): while Redis is away the gateway lets requests
 * through without rate limits and trusts no cached token, so a revocation still stops a token
 * on the very next request.
 */
let stack: Stack;
beforeAll(async () => {
  // Nothing listens on port 1: every Redis call fails at once.
  stack = await startStack({ REDIS_URL: 'redis://127.0.0.1:1/0', IP_RATE_LIMIT: '3' });
});
afterAll(async () => {
  await stack.stop();
});

const whoami = (token: string) => stack.api.get('/api/v1/whoami').set('Authorization', `Bearer ${token}`);

it('answers requests without rate limits while Redis is down, and still honours a revocation at once', async () => {
  const account = await stack.admin.account();
  const token = await stack.admin.token(account.id, ['account:read']);
  // Far past the per-IP budget of 3: nothing is counted while Redis is away.
  for (let i = 0; i < 8; i++) expect((await whoami(token.value)).status).toBe(200);
  // No budget is counted, so none is stated (the RateLimit fields are absent, not made up).
  const open = await whoami(token.value);
  expect([open.headers.ratelimit, open.headers['ratelimit-policy']]).toEqual([undefined, undefined]);
  // Said in /metrics on every such request, for an alert (the log says it once per 10 s).
  const counted = await serviceRegistry('gateway').getSingleMetric('gateway_redis_unavailable_total')?.get();
  expect(counted?.values[0]?.value).toBeGreaterThanOrEqual(9);
  await stack.admin.revoke(token.id);
  const res = await whoami(token.value);
  expect([res.status, res.body.error.code]).toEqual([401, 'TOKEN_INVALID']);
});
