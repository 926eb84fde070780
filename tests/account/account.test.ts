import { startStack, type Stack } from '../support/stack';
import { expectContract, expectError } from '../support/contract-response';

let stack: Stack;
beforeAll(async () => {
  stack = await startStack();
});
afterAll(async () => {
  await stack.stop();
});

async function owner(account: Record<string, unknown> = {}) {
  const acc = await stack.admin.account(account);
  const token = await stack.admin.token(acc.id, ['account:read', 'account:write']);
  const auth = { Authorization: `Bearer ${token.value}` };
  return {
    account: acc,
    get: () => stack.api.get('/api/v1/account').set(auth),
    patch: (body: unknown) =>
      stack.api
        .patch('/api/v1/account/settings')
        .set(auth)
        .send(body as object),
  };
}

const DEFAULTS = { speakerNamingMode: 'AUTO', memoryLearningEnabled: true, summaryEmailEnabled: false, uiLocale: 'en' };

describe('GET /account (getAccount)', () => {
  it('answers owner, wallet and the default settings, and never a phone number or email', async () => {
    const me = await owner({ displayName: 'Sara', email: 'sara@example.test', balanceMinutes: 75 });
    const body = expectContract('getAccount', await me.get());
    expect(body).toEqual({
      schemaVersion: 1,
      owner: { type: 'user', id: me.account.id, displayName: 'Sara' },
      wallet: { balanceMinutes: 75 },
      settings: DEFAULTS,
    });
    expect(JSON.stringify(body)).not.toContain('sara@example.test');
  });

  it('answers displayName null when no name was set', async () => {
    const me = await owner();
    expect(expectContract('getAccount', await me.get()).owner.displayName).toBeNull();
  });
});

describe('PATCH /account/settings (updateAccountSettings)', () => {
  it('changes the settings sent, keeps the others, and answers the Account', async () => {
    const me = await owner({ balanceMinutes: 10 });
    const body = expectContract(
      'updateAccountSettings',
      await me.patch({ speakerNamingMode: 'FORCE_ON', summaryEmailEnabled: true }),
    );
    expect(body.settings).toEqual({ ...DEFAULTS, speakerNamingMode: 'FORCE_ON', summaryEmailEnabled: true });
    expect(body.wallet).toEqual({ balanceMinutes: 10 });
    const again = expectContract('updateAccountSettings', await me.patch({ memoryLearningEnabled: false }));
    expect(again.settings).toEqual({
      ...DEFAULTS,
      speakerNamingMode: 'FORCE_ON',
      summaryEmailEnabled: true,
      memoryLearningEnabled: false,
    });
    expect(expectContract('getAccount', await me.get()).settings).toEqual(again.settings);
  });

  it('answers 400 VALIDATION for an empty body, uiLocale, an unknown field or a bad value, and writes nothing', async () => {
    const me = await owner();
    for (const body of [
      {},
      { uiLocale: 'fa' },
      { speakerNamingMode: 'FORCE_OFF', theme: 'dark' },
      { speakerNamingMode: 'SOMETIMES' },
      { summaryEmailEnabled: 'yes' },
    ]) {
      expectError(await me.patch(body), 400, 'VALIDATION');
    }
    expect(expectContract('getAccount', await me.get()).settings).toEqual(DEFAULTS);
  });

  it('answers 400 VALIDATION for a body that is not a JSON object', async () => {
    const me = await owner();
    expectError(await me.patch([{ speakerNamingMode: 'AUTO' }]), 400, 'VALIDATION');
    expect(expectContract('getAccount', await me.get()).settings).toEqual(DEFAULTS);
  });
});
