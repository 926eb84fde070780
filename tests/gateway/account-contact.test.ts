import { RemoteError } from '@mm/bus';
import { startStack, type Stack } from '../support/stack';
import { BUS } from '@mm/contract';

let stack: Stack;
beforeAll(async () => {
  stack = await startStack();
});
afterAll(async () => {
  await stack.stop();
});

describe('accountContact (how services reach the owner)', () => {
  it('answers the email and display name the admin API set', async () => {
    const account = await stack.admin.account({ email: 'sara@example.test', displayName: 'Sara' });
    expect(await stack.request(BUS.accountContact, { accountId: account.id })).toEqual({
      email: 'sara@example.test',
      displayName: 'Sara',
    });
    await stack.admin.patchAccount(account.id, { email: null });
    expect(await stack.request(BUS.accountContact, { accountId: account.id })).toEqual({
      email: null,
      displayName: 'Sara',
    });
  });

  it('refuses an unknown account with NOT_FOUND and a malformed request with VALIDATION', async () => {
    await expect(stack.request(BUS.accountContact, { accountId: 'acc_missing' })).rejects.toMatchObject({
      code: 'NOT_FOUND',
    });
    // @ts-expect-error sent without its accountId on purpose: the owner must refuse it
    const err: unknown = await stack.request(BUS.accountContact, {}, { unchecked: true }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(RemoteError);
    expect((err as RemoteError).code).toBe('VALIDATION');
  });
});
