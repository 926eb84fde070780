import { Client } from 'pg';
import { startStack, type Stack } from '../support/stack';

let stack: Stack;
beforeAll(async () => {
  stack = await startStack();
});
afterAll(async () => {
  await stack.admin.flags(false);
  await stack.stop();
});

const bearer = (v: string) => ({ Authorization: `Bearer ${v}` });
const whoami = (headers: Record<string, string> = {}) => stack.api.get('/api/v1/whoami').set(headers);

async function liveToken(scopes = ['recordings:read'], account: Record<string, unknown> = {}) {
  const acc = await stack.admin.account(account);
  return { account: acc, token: await stack.admin.token(acc.id, scopes) };
}

describe('the checks every token request passes, in order', () => {
  it('answers 401 UNAUTHORIZED without an Authorization header, or with a non-Bearer one', async () => {
    for (const headers of [
      {} as Record<string, string>,
      { Authorization: 'Basic dXNlcjpwYXNz' },
      { Authorization: 'Bearer' },
      { Authorization: 'Token svc_abc' },
    ]) {
      const res = await whoami(headers);
      expect(res.status).toBe(401);
      expect(res.body).toEqual({ error: { code: 'UNAUTHORIZED', message: expect.any(String) } });
    }
  });

  it('reads the auth scheme case-insensitively, as HTTP says', async () => {
    const account = await stack.admin.account({ developerMode: true });
    const token = await stack.admin.token(account.id, ['recordings:read']);
    expect((await whoami({ Authorization: `bearer ${token.value}` })).status).toBe(200);
    expect((await whoami({ Authorization: `BEARER ${token.value}` })).status).toBe(200);
  });

  it('answers 400 TOKEN_REQUIRED to whoami from a signed-in browser (app session cookie, no token)', async () => {
    const res = await whoami({ Cookie: 'theme=dark; mm_session=abc123' });
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('TOKEN_REQUIRED');
  });

  it('answers 401 TOKEN_NOT_ACCEPTED on an app-only route for any bearer, and UNAUTHORIZED first without one', async () => {
    const { token } = await liveToken();
    expect((await stack.api.delete('/api/v1/recordings/rec_x').set(bearer(token.value))).body.error.code).toBe(
      'TOKEN_NOT_ACCEPTED',
    );
    expect((await stack.api.delete('/api/v1/recordings/rec_x').set(bearer('svc_garbage'))).body.error.code).toBe(
      'TOKEN_NOT_ACCEPTED',
    );
    expect((await stack.api.delete('/api/v1/recordings/rec_x')).body.error.code).toBe('UNAUTHORIZED');
  });

  it('answers 401 TOKENS_DISABLED while tokens are off for everyone, before TOKEN_INVALID, and keeps the token', async () => {
    const { token } = await liveToken();
    const revoked = await liveToken();
    await stack.admin.revoke(revoked.token.id);
    expect((await stack.admin.flags(true)).body).toEqual({ flags: { tokensDisabled: true } });
    try {
      const res = await whoami(bearer(token.value));
      expect(res.status).toBe(401);
      expect(res.body.error.code).toBe('TOKENS_DISABLED');
      expect((await whoami(bearer(revoked.token.value))).body.error.code).toBe('TOKENS_DISABLED');
    } finally {
      await stack.admin.flags(false);
    }
    expect((await whoami(bearer(token.value))).status).toBe(200);
  });

  it('answers 401 TOKEN_INVALID alike for unknown, malformed, revoked and expired tokens', async () => {
    const { token } = await liveToken();
    expect((await whoami(bearer(token.value))).status).toBe(200);
    await stack.admin.revoke(token.id);
    const revoked = await whoami(bearer(token.value));
    const { token: other } = await liveToken();
    const db = new Client({ connectionString: stack.env.DATABASE_URL });
    await db.connect();
    await db.query("update access.token set expires_at = now() - interval '1 second' where id = $1", [other.id]);
    await db.end();
    const unknown = await whoami(bearer(`svc_${'A'.repeat(43)}aaaaaa`));
    const malformed = await whoami(bearer('svc_not-a-token'));
    // The expiry was written behind the gateway's back; the next admin change makes it look again.
    await stack.admin.flags(false);
    const expired = await whoami(bearer(other.value));
    for (const res of [revoked, unknown, malformed, expired]) {
      expect(res.status).toBe(401);
      expect(res.body.error.code).toBe('TOKEN_INVALID');
    }
    expect(new Set([revoked, unknown, malformed, expired].map((r) => r.body.error.message)).size).toBe(1);
  });

  it('answers TOKEN_INVALID, not DEVELOPER_MODE_OFF, to a revoked token of an account with developer mode off', async () => {
    const { account, token } = await liveToken();
    await stack.admin.patchAccount(account.id, { developerMode: false });
    await stack.admin.revoke(token.id);
    expect((await whoami(bearer(token.value))).body.error.code).toBe('TOKEN_INVALID');
  });

  it('answers 403 DEVELOPER_MODE_OFF while developer mode is off, and the same token works once it is on', async () => {
    const { account, token } = await liveToken(['recordings:read'], { developerMode: false });
    const res = await whoami(bearer(token.value));
    expect(res.status).toBe(403);
    expect(res.body.error.code).toBe('DEVELOPER_MODE_OFF');
    await stack.admin.patchAccount(account.id, { developerMode: true });
    expect((await whoami(bearer(token.value))).status).toBe(200);
  });

  it('answers 403 TOKEN_SCOPE for a token without the scope, even where the switch is off', async () => {
    const { account, token } = await liveToken(['recordings:read']);
    expect((await stack.api.get('/api/v1/account').set(bearer(token.value))).body.error.code).toBe('TOKEN_SCOPE');
    await stack.admin.patchAccount(account.id, { switches: { API_WRITE_ENABLED: false } });
    const res = await stack.api
      .patch('/api/v1/account/settings')
      .set(bearer(token.value))
      .send({ memoryLearningEnabled: false });
    expect(res.status).toBe(403);
    expect(res.body.error.code).toBe('TOKEN_SCOPE');
  });

  it('answers 403 SCOPE_DISABLED only when the token holds a scope that would admit the route', async () => {
    const { account, token } = await liveToken(['recordings:write', 'recordings:read', 'recordings:query']);
    await stack.admin.patchAccount(account.id, { switches: { API_WRITE_ENABLED: false, API_QUERY_ENABLED: false } });
    const submit = await stack.api.post('/api/v1/recordings').set(bearer(token.value));
    expect(submit.status).toBe(403);
    expect(submit.body.error.code).toBe('SCOPE_DISABLED');
    expect((await stack.api.get('/api/v1/recordings/search?q=x').set(bearer(token.value))).body.error?.code).toBe(
      'SCOPE_DISABLED',
    );
    // recordings:read also admits status, so the switched-off write scope does not matter there.
    const status = await stack.api.get('/api/v1/recordings/rec_nope/status').set(bearer(token.value));
    expect(status.body.error?.code).not.toBe('SCOPE_DISABLED');
    const writeOnly = await stack.admin.token(account.id, ['recordings:write']).catch((e: Error) => e.message);
    expect(writeOnly).toContain('SCOPE_UNAVAILABLE');
  });

  it('answers 403 PENDING_APPROVAL last: after the scope check and after developer mode', async () => {
    const { account, token } = await liveToken(['recordings:read'], { approved: false });
    expect((await whoami(bearer(token.value))).body.error.code).toBe('PENDING_APPROVAL');
    expect((await stack.api.get('/api/v1/account').set(bearer(token.value))).body.error.code).toBe('TOKEN_SCOPE');
    await stack.admin.patchAccount(account.id, { developerMode: false });
    expect((await whoami(bearer(token.value))).body.error.code).toBe('DEVELOPER_MODE_OFF');
    await stack.admin.patchAccount(account.id, { developerMode: true, approved: true });
    expect((await whoami(bearer(token.value))).status).toBe(200);
  });

  it('answers a plain-text 404 Not Found for a path under /api/ that is no route', async () => {
    for (const path of ['/api/v1/nothing', '/api/v2/whoami', '/api/v1/recordings/x/y/z', '/api/other']) {
      const res = await stack.api.get(path).set(bearer('svc_x'));
      expect(res.status).toBe(404);
      expect(res.headers['content-type']).toMatch(/^text\/plain/);
      expect(res.text).toBe('Not Found');
    }
  });

  it('never forwards a forged principal header', async () => {
    const res = await whoami({ 'X-MM-Principal': 'forged' });
    expect(res.body.error.code).toBe('UNAUTHORIZED');
  });
});

describe('tokens made through the admin API', () => {
  it('have the svc_ prefix and 256 bits of randomness, and are refused once 10 are active', async () => {
    const account = await stack.admin.account();
    const values: string[] = [];
    for (let i = 0; i < 10; i++) values.push((await stack.admin.token(account.id, ['recordings:read'])).value);
    for (const v of values) expect(v).toMatch(/^svc_[A-Za-z0-9_-]{43}[a-z2-7]{6}$/);
    expect(new Set(values).size).toBe(10);
    const { api, auth } = stack.admin.raw();
    const eleventh = await api
      .post(`/admin/v1/accounts/${account.id}/tokens`)
      .set(auth)
      .send({ name: 'x', scopes: ['recordings:read'] });
    expect(eleventh.status).toBe(400);
    const first = await stack.admin.token(account.id, ['recordings:read']).catch((e: Error) => e);
    expect(first).toBeInstanceOf(Error);
  });

  it('refuses a switched-off scope with 400 SCOPE_UNAVAILABLE', async () => {
    const account = await stack.admin.account({ switches: { API_QUERY_ENABLED: false } });
    const { api, auth } = stack.admin.raw();
    const res = await api
      .post(`/admin/v1/accounts/${account.id}/tokens`)
      .set(auth)
      .send({ name: 'x', scopes: ['recordings:read', 'series:query'] });
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('SCOPE_UNAVAILABLE');
  });

  it('stores only a keyed hash of the token', async () => {
    const { token } = await liveToken();
    const db = new Client({ connectionString: stack.env.DATABASE_URL });
    await db.connect();
    const { rows } = await db.query('select * from access.token where id = $1', [token.id]);
    await db.end();
    expect(JSON.stringify(rows)).not.toContain(token.value);
    expect(JSON.stringify(rows)).not.toContain(token.value.slice(4, 30));
  });
});
