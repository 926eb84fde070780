import { startStack, type Stack } from '../support/stack';

let stack: Stack;
beforeAll(async () => {
  stack = await startStack();
});
afterAll(async () => {
  await stack.stop();
});

describe('GET /whoami', () => {
  it('answers the Token info resource with the wallet for a token holding account:read', async () => {
    const account = await stack.admin.account({ displayName: 'Sara', balanceMinutes: 120 });
    const token = await stack.admin.token(account.id, ['account:read', 'recordings:read'], { dailyMinuteCap: 50, expiresInDays: 30 });
    const res = await stack.api.get('/api/v1/whoami').set('Authorization', `Bearer ${token.value}`);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      schemaVersion: 1,
      owner: { type: 'user', id: account.id, displayName: 'Sara' },
      token: { id: token.id, name: 'test', scopes: ['recordings:read', 'account:read'], dailyMinuteCap: 50, usedMinutes24h: 0 },
      wallet: { balanceMinutes: 120 },
      limits: { maxUploadMb: 500, maxRecordingMinutes: 300 },
    });
    expect(Date.parse(res.body.token.expiresAt)).toBeGreaterThan(Date.now() + 29 * 24 * 3600 * 1000);
  });

  it('answers wallet null without account:read', async () => {
    const account = await stack.admin.account();
    const token = await stack.admin.token(account.id, ['series:read']);
    const res = await stack.api.get('/api/v1/whoami').set('Authorization', `Bearer ${token.value}`);
    expect(res.status).toBe(200);
    expect(res.body.wallet).toBeNull();
    expect(res.body.token.expiresAt).toBeNull();
    expect(res.body.owner.displayName).toBeNull();
  });
});
