import request from 'supertest';
import type { Running } from '@mm/http';
import { loadConfig as gatewayConfig } from '../../services/gateway/src/config';
import { startGateway } from '../../services/gateway/src/main';
import { startStack, type Stack } from '../support/stack';

/** A second gateway of the same stack whose events service is unreachable (nothing listens on port 9). */
let stack: Stack;
let broken: Running;
beforeAll(async () => {
  stack = await startStack();
  const cfg = gatewayConfig(stack.env);
  broken = await startGateway({ ...cfg, port: 0, serviceUrls: { ...cfg.serviceUrls, events: 'http://127.0.0.1:9' } });
}, 60_000);
afterAll(async () => {
  await broken.close();
  await stack.stop();
});

describe('an owning service that does not answer', () => {
  it('answers 500 INTERNAL_ERROR with the code alone', async () => {
    const account = await stack.admin.account();
    const token = await stack.admin.token(account.id, ['recordings:read']);
    const res = await request(`http://127.0.0.1:${broken.port}`)
      .get('/api/v1/events')
      .set('Authorization', `Bearer ${token.value}`);
    expect(res.status).toBe(500);
    expect(res.body).toEqual({ error: { code: 'INTERNAL_ERROR' } });
    expect(res.headers['x-request-id']).toMatch(/^[\w-]+$/);
  });
});
