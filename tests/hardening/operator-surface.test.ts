import request from 'supertest';
import { loadConfig as gatewayConfig } from '../../services/gateway/src/config';
import { startGateway } from '../../services/gateway/src/main';
import { freshAddress, TRUST_TEST_CLIENT } from '../support/addresses';
import { ADMIN_KEY, startStack, type Stack } from '../support/stack';

/** The admin API's own limits (20 requests a minute, 5 wrong keys), and what the public port does not show. */
let stack: Stack;
beforeAll(async () => {
  stack = await startStack({ ...TRUST_TEST_CLIENT, ADMIN_RATE_LIMIT: '20', ADMIN_AUTH_FAILURE_LIMIT: '5' });
}, 60_000);
afterAll(() => stack.stop());

const flags = (ip: string, key: string) =>
  stack.api.get('/admin/v1/accounts/acc_none').set('Authorization', `Bearer ${key}`).set('X-Forwarded-For', ip);

describe('the admin API', () => {
  it('has its own request budget per address', async () => {
    const ip = freshAddress();
    for (let i = 0; i < 20; i++) expect((await flags(ip, ADMIN_KEY)).status).toBe(404);
    const over = await flags(ip, ADMIN_KEY);
    expect([over.status, over.body.error.code]).toEqual([429, 'RATE_LIMITED']);
    expect(Number(over.headers['retry-after'])).toBeGreaterThan(0);
    expect((await flags(freshAddress(), ADMIN_KEY)).status).toBe(404);
  });

  it('refuses an address past its wrong keys, but never the right key from there', async () => {
    const ip = freshAddress();
    for (let i = 0; i < 5; i++) expect((await flags(ip, `guess-${i}`)).body.error.code).toBe('UNAUTHORIZED');
    const over = await flags(ip, 'guess-6');
    expect([over.status, over.body.error.code]).toEqual([429, 'RATE_LIMITED']);
    expect(Number(over.headers['retry-after'])).toBeGreaterThan(0);
    // Behind a proxy without TRUSTED_PROXIES every client shares one address: a wrong-key flood
    // must not lock the holder of the right key out (issue 25).
    expect((await flags(ip, ADMIN_KEY)).status).toBe(404);
    expect((await flags(freshAddress(), ADMIN_KEY)).status).toBe(404);
  });

  it('takes the key whatever the case of "Bearer"', async () => {
    const res = await stack.api
      .get('/admin/v1/accounts/acc_none')
      .set('Authorization', `bEaReR ${ADMIN_KEY}`)
      .set('X-Forwarded-For', freshAddress());
    expect([res.status, res.body.error.code]).toEqual([404, 'NOT_FOUND']);
  });
});

describe('the public port', () => {
  it.each(['/readyz', '/metrics'])('answers a plain 404 to %s', async (path) => {
    const res = await stack.api.get(path);
    expect([res.status, res.headers['content-type'], res.text]).toEqual([
      404,
      'text/plain; charset=utf-8',
      'Not Found',
    ]);
  });
});

describe('the ops port', () => {
  it('counts in /metrics the requests carrying X-Forwarded-For while TRUSTED_PROXIES is unset', async () => {
    const gateway = await startGateway({
      ...gatewayConfig({ ...stack.env, TRUSTED_PROXIES: '' }),
      port: 0,
      serviceUrls: stack.serviceUrls,
    });
    try {
      await request(`http://127.0.0.1:${gateway.port}`).get('/api/v1/whoami').set('X-Forwarded-For', '198.51.100.7');
      const text = (await request(`http://127.0.0.1:${gateway.opsPort}`).get('/metrics')).text;
      expect(Number(/^gateway_forwarded_for_untrusted_total\{[^}]*\} (\d+)/m.exec(text)?.[1] ?? 0)).toBeGreaterThan(0);
    } finally {
      await gateway.close();
    }
  });

  it('answers /readyz and /metrics', async () => {
    const gateway = await startGateway({ ...gatewayConfig(stack.env), port: 0, serviceUrls: stack.serviceUrls });
    try {
      const ops = request(`http://127.0.0.1:${gateway.opsPort}`);
      expect((await ops.get('/readyz')).body).toEqual({ status: 'ready' });
      expect((await ops.get('/metrics')).text).toContain('http_request_duration_seconds');
      expect((await ops.get('/api/v1/whoami')).status).toBe(404);
    } finally {
      await gateway.close();
    }
  });
});
