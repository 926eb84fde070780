import { buildOpenApi, RATE_CLASSES } from '@mm/contract';
import { startStack, type Stack } from '../support/stack';

const bearer = (v: string) => ({ Authorization: `Bearer ${v}` });
const PUBLIC = 'https://meetings.example.com';

type Doc = Record<string, any>;
const doc = buildOpenApi({ serverUrl: `${PUBLIC}/api/v1` }) as Doc;
/** The pattern openapi.json gives a header of one response (declared in components.headers): what is sent must fit what is described. */
const described = (path: string, method: string, status: string, header: string): RegExp => {
  const ref: string = doc.paths[path][method].responses[status].headers[header].$ref;
  return new RegExp(doc.components.headers[ref.replace('#/components/headers/', '')].schema.pattern);
};

/** `"<class>";r=<left>;t=<seconds>` read back. */
function left(value: string | undefined): { cls: string; r: number; t: number } {
  const m = /^"(\w+)";r=(\d+);t=(\d+)$/.exec(value ?? '');
  if (!m) throw new Error(`not a RateLimit field: ${value}`);
  return { cls: m[1], r: Number(m[2]), t: Number(m[3]) };
}

describe("headers of every answer: the token's rate budget (IETF RateLimit fields) and the CORS origin", () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await startStack({ PUBLIC_BASE_URL: PUBLIC });
  });
  afterAll(async () => {
    await stack.stop();
  });

  it('states the read budget on whoami and counts it down from one request to the next', async () => {
    const account = await stack.admin.account();
    const token = await stack.admin.token(account.id, ['recordings:read']);
    const first = await stack.api.get('/api/v1/whoami').set(bearer(token.value));
    const second = await stack.api.get('/api/v1/whoami').set(bearer(token.value));
    expect([first.status, second.status]).toEqual([200, 200]);
    const { requests, windowSeconds } = RATE_CLASSES.read;
    expect(first.headers['ratelimit-policy']).toBe(`"read";q=${requests};w=${windowSeconds}`);
    expect(first.headers['ratelimit-policy']).toMatch(described('/whoami', 'get', '200', 'RateLimit-Policy'));
    expect(first.headers.ratelimit).toMatch(described('/whoami', 'get', '200', 'RateLimit'));
    const [a, b] = [left(first.headers.ratelimit), left(second.headers.ratelimit)];
    expect([a.cls, a.r, b.r]).toEqual(['read', requests - 1, requests - 2]);
    expect(a.t).toBeGreaterThan(0);
    expect(a.t).toBeLessThanOrEqual(windowSeconds);
    expect(first.headers['access-control-allow-origin']).toBe(PUBLIC);
  });

  it("adds them to an owning service's answer and error, each with its route's class", async () => {
    const account = await stack.admin.account();
    const token = await stack.admin.token(account.id, ['recordings:read', 'account:write']);
    const missing = await stack.api.get('/api/v1/recordings/rec_none/status').set(bearer(token.value));
    expect(missing.status).toBe(404);
    expect(left(missing.headers.ratelimit)).toMatchObject({ cls: 'read', r: RATE_CLASSES.read.requests - 1 });
    const refused = await stack.api.patch('/api/v1/account/settings').set(bearer(token.value)).send({});
    expect(refused.status).toBe(400);
    expect(refused.headers['ratelimit-policy']).toBe(
      `"settings";q=${RATE_CLASSES.settings.requests};w=${RATE_CLASSES.settings.windowSeconds}`,
    );
    expect(left(refused.headers.ratelimit)).toMatchObject({ cls: 'settings', r: RATE_CLASSES.settings.requests - 1 });
    expect(refused.headers['access-control-allow-origin']).toBe(PUBLIC);
  });

  it('says r=0 on the 429 of a spent budget, beside Retry-After', async () => {
    const account = await stack.admin.account();
    const token = await stack.admin.token(account.id, ['recordings:write']);
    for (let i = 0; i < RATE_CLASSES.submit.requests; i++) {
      const res = await stack.api.post('/api/v1/recordings/rec_none/retry').set(bearer(token.value));
      expect(left(res.headers.ratelimit).r).toBe(RATE_CLASSES.submit.requests - 1 - i);
    }
    const over = await stack.api.post('/api/v1/recordings/rec_none/retry').set(bearer(token.value));
    expect(over.status).toBe(429);
    const budget = left(over.headers.ratelimit);
    expect(budget.r).toBe(0);
    expect(Number(over.headers['retry-after'])).toBe(budget.t);
  });

  it('sends the CORS origin but no budget before the token is known, and answers no preflight', async () => {
    const none = await stack.api.get('/api/v1/whoami');
    expect(none.status).toBe(401);
    expect(none.headers['access-control-allow-origin']).toBe(PUBLIC);
    expect(none.headers.ratelimit).toBeUndefined();
    const preflight = await stack.api.options('/api/v1/whoami').set({
      Origin: 'https://elsewhere.example',
      'Access-Control-Request-Method': 'GET',
      'Access-Control-Request-Headers': 'authorization',
    });
    expect(preflight.status).toBe(404);
    expect(preflight.headers['access-control-allow-methods']).toBeUndefined();
    expect(preflight.headers['access-control-allow-headers']).toBeUndefined();
    expect(preflight.headers['access-control-allow-origin']).toBe(PUBLIC);
  });
});
