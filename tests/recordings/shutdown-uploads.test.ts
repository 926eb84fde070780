import { startStack, type Stack } from '../support/stack';
import { query, slowSubmit } from '../support/money';

/**
 * Shutting the recordings service down while an upload is in flight (issue 11, behaviour 5): the
 * upload's Idempotency-Key claim goes with it, so a retry is not told UPLOAD_IN_PROGRESS for the
 * 15 minutes a claim takes to go stale.
 */
let stack: Stack;
beforeAll(async () => {
  stack = await startStack();
}, 60_000);
afterAll(async () => {
  await stack.stop();
});

describe('shutdown with an upload in flight', () => {
  it('drops the claim of the upload it cut off', async () => {
    const account = await stack.admin.account({ balanceMinutes: 20 });
    const token = await stack.admin.token(account.id, ['recordings:write']);
    const key = `shutdown-${Date.now()}`;
    const upload = slowSubmit(stack, token.value, key);
    upload.answer.catch(() => undefined);
    const claims = () =>
      query(stack, 'select state from recordings.idempotency_key where account_id = $1 and key = $2', [
        account.id,
        key,
      ]);
    const until = Date.now() + 10_000;
    while ((await claims()).length === 0 && Date.now() < until) await new Promise((r) => setTimeout(r, 100));
    expect(await claims()).toEqual([{ state: 'storing' }]);

    await stack.services.recordings.close();
    expect(await claims()).toEqual([]);
  }, 30_000);
});
