import request from 'supertest';
import { Redis } from 'ioredis';
import { Pool } from 'pg';
import type { Running } from '@mm/http';
import { loadConfig as gatewayConfig } from '../../services/gateway/src/config';
import { startGateway } from '../../services/gateway/src/main';
import { ACCESS_EPOCH_KEY, TOKEN_CACHE_MAX_AGE_MS } from '../../services/gateway/src/services/access-gate';
import { ADMIN_KEY, startStack, type Stack } from '../support/stack';

/**
 * A revoked token never comes back: two gateway replicas in front of the same services, and the
 * access epoch in Redis lost (a restart without persistence) or rolled back (a failover to a
 * replica that missed the change).
 */
let stack: Stack;
let replica: Running;
let blind: Running;
const redis = new Redis(process.env.REDIS_URL!);
const epochKey = () => `${stack.busNamespace}${ACCESS_EPOCH_KEY}`;
beforeAll(async () => {
  stack = await startStack();
  const cfg = gatewayConfig(stack.env);
  replica = await startGateway({ ...cfg, port: 0, serviceUrls: stack.serviceUrls });
  // A replica that cannot reach Redis at all (nothing listens on port 1).
  blind = await startGateway({ ...cfg, redisUrl: 'redis://127.0.0.1:1/0', port: 0, serviceUrls: stack.serviceUrls });
}, 60_000);
afterAll(async () => {
  redis.disconnect();
  await replica.close();
  await blind.close();
  await stack.stop();
});

const at = (g: Running) => request(`http://127.0.0.1:${g.port}`);
const whoami = (g: Running | null, token: string) =>
  (g ? at(g) : stack.api).get('/api/v1/whoami').set('Authorization', `Bearer ${token}`);

/** The replica's answer once it stops answering 200, or after the cache bound (plus slack) has passed. */
async function statusOnceCacheBoundPassed(value: string): Promise<number> {
  const until = Date.now() + TOKEN_CACHE_MAX_AGE_MS + 3_000;
  let status = 200;
  while (status === 200 && Date.now() < until) {
    status = (await whoami(replica, value)).status;
    if (status === 200) await new Promise((r) => setTimeout(r, 250));
  }
  return status;
}

async function liveToken() {
  const account = await stack.admin.account();
  return stack.admin.token(account.id, ['account:read']);
}

it('refuses a revoked token on every replica at once', async () => {
  const token = await liveToken();
  for (const g of [null, replica, blind]) expect((await whoami(g, token.value)).status).toBe(200);
  expect((await stack.admin.revoke(token.id)).status).toBe(200);
  for (const g of [null, replica, blind]) expect((await whoami(g, token.value)).body.error.code).toBe('TOKEN_INVALID');
});

it('refuses a revoked token on a replica that cached it, after Redis restarted empty', async () => {
  const token = await liveToken();
  await redis.del(epochKey()); // Redis as it starts: no epoch yet
  expect((await whoami(replica, token.value)).status).toBe(200); // cached by the replica
  expect((await stack.admin.revoke(token.id)).status).toBe(200);
  await redis.del(epochKey()); // Redis restarts without persistence
  const res = await whoami(replica, token.value);
  expect([res.status, res.body.error?.code]).toEqual([401, 'TOKEN_INVALID']);
});

it('refuses a revoked token within the cache bound when a failover rolled the epoch back', async () => {
  const token = await liveToken();
  expect((await whoami(replica, token.value)).status).toBe(200);
  const before = await redis.get(epochKey());
  expect((await stack.admin.revoke(token.id)).status).toBe(200);
  await redis.set(epochKey(), before!); // the new primary never saw the change
  expect(await statusOnceCacheBoundPassed(token.value)).toBe(401);
}, 30_000);

it('answers an error, not 200, to a revoke that cannot be announced to the replicas, and the token is refused', async () => {
  const token = await liveToken();
  const res = await at(blind).delete(`/admin/v1/tokens/${token.id}`).set('Authorization', `Bearer ${ADMIN_KEY}`);
  expect([res.status, res.body]).toEqual([500, { error: { code: 'INTERNAL_ERROR' } }]);
  // Saved all the same: repeating it where Redis answers confirms it, and no replica serves the token.
  expect((await stack.admin.revoke(token.id)).status).toBe(200);
  for (const g of [null, replica, blind]) expect((await whoami(g, token.value)).status).toBe(401);
});

it('refuses a token revoked by hand in Postgres (no epoch change at all) within the cache bound', async () => {
  const token = await liveToken();
  expect((await whoami(replica, token.value)).status).toBe(200); // cached by the replica
  const pool = new Pool({ connectionString: stack.env.DATABASE_URL, max: 1 });
  try {
    // An operator in psql, with the default search path: the trigger still changes the access version.
    await pool.query('update access.token set revoked_at = now() where id = $1', [token.id]);
  } finally {
    await pool.end();
  }
  expect(await statusOnceCacheBoundPassed(token.value)).toBe(401);
}, 30_000);
