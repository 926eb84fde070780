import { connectBus, request, RemoteError, type Bus } from '@mm/bus';
import { startStack, type Stack } from '../support/stack';

let stack: Stack;
let bus: Bus;
beforeAll(async () => {
  stack = await startStack();
  bus = await connectBus(stack.natsUrl, 'test', stack.busNamespace);
});
afterAll(async () => {
  await bus.close();
  await stack.stop();
});

describe('access.account.contact (how services reach the owner)', () => {
  it('answers the email and display name the admin API set', async () => {
    const account = await stack.admin.account({ email: 'sara@example.test', displayName: 'Sara' });
    expect(await request(bus.nc, 'access.account.contact', { accountId: account.id })).toEqual({ email: 'sara@example.test', displayName: 'Sara' });
    await stack.admin.patchAccount(account.id, { email: null });
    expect(await request(bus.nc, 'access.account.contact', { accountId: account.id })).toEqual({ email: null, displayName: 'Sara' });
  });

  it('refuses an unknown account with NOT_FOUND and a malformed request with VALIDATION', async () => {
    await expect(request(bus.nc, 'access.account.contact', { accountId: 'acc_missing' })).rejects.toMatchObject({ code: 'NOT_FOUND' });
    const err: unknown = await request(bus.nc, 'access.account.contact', {}).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(RemoteError);
    expect((err as RemoteError).code).toBe('VALIDATION');
  });
});
