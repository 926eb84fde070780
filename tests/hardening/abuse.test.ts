import http from 'node:http';
import type { AddressInfo } from 'node:net';
import request from 'supertest';
import type { Running } from '@mm/http';
import { REPLAY_ONLY_HEADER } from '@mm/http';
import { EXPECTED_BUDGETS } from '../support/contract-table';
import { loadConfig as gatewayConfig } from '../../services/gateway/src/config';
import { startGateway } from '../../services/gateway/src/main';
import { freshAddress, neighbourOf, TRUST_TEST_CLIENT } from '../support/addresses';
import { generateTokenValue } from '../../services/gateway/src/domain/token-value';
import { startStack, type Stack } from '../support/stack';

/**
 * The per-address limit behind a proxy: the test client is the trusted ingress (127.0.0.1) and
 * names the client in X-Forwarded-For. 100 requests per address, 300 junk bearers per address.
 */
let stack: Stack;
beforeAll(async () => {
  stack = await startStack({ ...TRUST_TEST_CLIENT, IP_RATE_LIMIT: '100', JUNK_RATE_LIMIT: '300' });
}, 60_000);
afterAll(() => stack.stop());

const from = (ip: string, token: string) =>
  stack.api.get('/api/v1/whoami').set('Authorization', `Bearer ${token}`).set('X-Forwarded-For', ip);

async function liveToken(scopes = ['account:read']) {
  const account = await stack.admin.account();
  return stack.admin.token(account.id, scopes);
}

it('serves a valid token from an address that just sent 400 junk-bearer requests', async () => {
  const token = await liveToken();
  const ip = freshAddress();
  const codes: string[] = [];
  for (let i = 0; i < 400; i++) codes.push((await from(ip, `junk-${i}`)).body.error.code);
  // The junk has its own budget: refused as junk, then rate limited, never counted against tokens.
  const counts = (cs: string[]) => cs.reduce<Record<string, number>>((m, c) => ({ ...m, [c]: (m[c] ?? 0) + 1 }), {});
  expect(counts(codes.slice(0, 300))).toEqual({ TOKEN_INVALID: 300 });
  // (A Redis call slower than the gateway's 500 ms timeout lets one through uncounted: decisions.md.)
  expect(counts(codes.slice(300)).RATE_LIMITED).toBeGreaterThanOrEqual(90);
  expect((await from(ip, token.value)).status).toBe(200);
}, 60_000);

it('counts checksum-valid tokens that no one holds against the address, then refuses them unlooked', async () => {
  const ip = freshAddress();
  const codes: string[] = [];
  // The checksum is a public CRC: anyone makes as many well-formed fakes as they like.
  for (let i = 0; i < 110; i++) codes.push((await from(ip, generateTokenValue())).body.error.code);
  const counts = (cs: string[]) => cs.reduce<Record<string, number>>((m, c) => ({ ...m, [c]: (m[c] ?? 0) + 1 }), {});
  // Within the address's budget (100 here) each is looked up and refused; past it, refused unlooked.
  expect(counts(codes.slice(0, 100))).toEqual({ TOKEN_INVALID: 100 });
  expect(counts(codes.slice(100))).toEqual({ RATE_LIMITED: 10 });
}, 60_000);

it('counts each client behind the trusted proxy on its own, by the address the proxy saw', async () => {
  const token = await liveToken();
  const many = await liveToken();
  const [busy, quiet] = [freshAddress(), freshAddress()];
  for (let i = 0; i < 100; i++) expect((await from(busy, many.value)).status).toBe(200);
  const over = await from(busy, many.value);
  expect([over.status, over.body.error.code]).toEqual([429, 'RATE_LIMITED']);
  // What the client wrote to the left of the proxy's entry is not believed.
  expect((await from(`${quiet}, ${busy}`, token.value)).status).toBe(429);
  expect((await from(`${busy}, ${quiet}`, token.value)).status).toBe(200);
}, 60_000);

it('counts the addresses of one IPv6 /64 network as one client', async () => {
  const token = await liveToken();
  const busy = freshAddress();
  for (let i = 0; i < 100; i++) expect((await from(busy, token.value)).status).toBe(200);
  const neighbour = await from(neighbourOf(busy), token.value);
  expect([neighbour.status, neighbour.body.error.code]).toEqual([429, 'RATE_LIMITED']);
  expect((await from(freshAddress(), token.value)).status).toBe(200);
}, 60_000);

describe('an over-budget spending request with an Idempotency-Key', () => {
  let upstream: http.Server;
  let gateway: Running;
  const seen: { replayOnly: boolean; bytes: number }[] = [];
  beforeAll(async () => {
    // A recordings service that records what reaches it and refuses everything.
    upstream = http.createServer((req, res) => {
      let bytes = 0;
      req.on('data', (c: Buffer) => (bytes += c.length));
      req.on('end', () => {
        seen.push({ replayOnly: req.headers[REPLAY_ONLY_HEADER] !== undefined, bytes });
        res.writeHead(429, { 'content-type': 'application/json', 'retry-after': '1' });
        res.end(JSON.stringify({ error: { code: 'RATE_LIMITED', message: 'no' } }));
      });
    });
    await new Promise<void>((r) => upstream.listen(0, '127.0.0.1', r));
    const cfg = gatewayConfig(stack.env);
    const recordings = `http://127.0.0.1:${(upstream.address() as AddressInfo).port}`;
    gateway = await startGateway({ ...cfg, port: 0, serviceUrls: { ...stack.serviceUrls, recordings } });
  });
  afterAll(async () => {
    await gateway.close();
    await new Promise((r) => upstream.close(r));
  });

  it('is forwarded as replay-only without streaming its body into the service', async () => {
    const token = await liveToken(['recordings:write']);
    const api = request(`http://127.0.0.1:${gateway.port}`);
    const submit = () =>
      api
        .post('/api/v1/recordings')
        .set('Authorization', `Bearer ${token.value}`)
        .set('X-Forwarded-For', freshAddress())
        .set('Idempotency-Key', 'replay-only-key-1')
        .attach('audio', Buffer.alloc(256 * 1024, 1), 'a.wav');
    for (let i = 0; i < EXPECTED_BUDGETS.submit; i++) await submit();
    expect(seen.filter((s) => s.replayOnly)).toEqual([]);
    const over = await submit();
    expect(over.status).toBe(429);
    expect(seen.at(-1)).toEqual({ replayOnly: true, bytes: 0 });
  }, 60_000);
});
