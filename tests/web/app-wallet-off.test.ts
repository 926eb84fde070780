import { startStack, type Stack } from '../support/stack';
import { launchBrowser, signedInContext, type TestBrowser } from '../support/browser';

/** An install that sells no minutes in the app (APP_PURCHASES off, the images' default). */
let stack: Stack;
let tb: TestBrowser;
beforeAll(async () => {
  stack = await startStack();
  tb = await launchBrowser();
}, 60_000);
afterAll(async () => {
  await tb?.close();
  await stack?.stop();
});

it('says the operator adds minutes, offers no pack, and a forged purchase buys nothing', async () => {
  const account = await stack.admin.account({ balanceMinutes: 45 });
  const token = (await stack.admin.token(account.id, ['account:read'])).value;
  const ctx = await signedInContext(tb.browser, stack, account.id, 'wallet-off@example.test');
  const page = await ctx.newPage();
  await page.goto(`${stack.url}/app/wallet`);
  const buy = page.getByRole('region', { name: 'Buy minutes' });
  await expect(buy.textContent()).resolves.toContain(
    'Minutes are added by the people who run this service; ask them for more.',
  );
  await expect(buy.getByRole('button').count()).resolves.toBe(0);
  const csrf = await page.locator('input[name="_csrf"]').first().inputValue();
  const forged = await page.request.post(`${stack.url}/app/wallet/buy`, {
    form: { _csrf: csrf, purchaseKey: 'a-key-the-page-never-made-01', minutes: '1000' },
    headers: { origin: stack.url },
    maxRedirects: 0,
  });
  expect([forged.status(), forged.headers().location]).toEqual([303, '/app/wallet']);
  const wallet = await stack.api.get('/api/v1/account').set('Authorization', `Bearer ${token}`);
  expect(wallet.body.wallet.balanceMinutes).toBe(45);
  await ctx.close();
});
