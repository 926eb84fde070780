import type { Page } from 'playwright-core';
import { startStack, type Stack, type TestAccount } from '../support/stack';
import { launchBrowser, signedInContext, type TestBrowser } from '../support/browser';

/** Issue 28, slice (b): the tokens page is the contract's creation form; the API obeys what it does at once. */
describe('the app: tokens page and developer mode (real browser)', () => {
  let stack: Stack;
  let tb: TestBrowser;
  let account: TestAccount;
  let page: Page;

  beforeAll(async () => {
    stack = await startStack();
    tb = await launchBrowser();
    account = await stack.admin.account({
      displayName: 'Reza',
      developerMode: false,
      switches: { API_QUERY_ENABLED: false },
    });
    const context = await signedInContext(tb.browser, stack, account.id, 'reza@example.test');
    page = await context.newPage();
  });
  afterAll(async () => {
    await tb?.close();
    await stack?.stop();
  });

  const whoami = (value: string) =>
    fetch(`${stack.url}/api/v1/whoami`, { headers: { authorization: `Bearer ${value}` } });

  it('groups the scopes as the contract does, with only recordings:read ticked', async () => {
    await page.goto(`${stack.url}/app/tokens`);
    // The main nav marks where the person is, and only there.
    const current = page.getByRole('navigation', { name: 'Main' }).locator('a[aria-current="page"]');
    await expect(current.allTextContents()).resolves.toEqual(['API tokens']);
    const groups = page.getByRole('group', { name: 'Scopes' }).getByRole('group');
    await expect(
      groups.evaluateAll((els) => els.map((el) => el.querySelector('legend')!.textContent)),
    ).resolves.toEqual(['Meetings', 'Series', 'Account']);
    const boxes = await page
      .getByRole('checkbox')
      .evaluateAll((els) => els.map((el) => [(el as HTMLInputElement).value, (el as HTMLInputElement).checked]));
    expect(boxes).toEqual([
      ['recordings:read', true],
      ['recordings:write', false],
      ['recordings:query', false],
      ['series:read', false],
      ['series:write', false],
      ['series:query', false],
      ['account:read', false],
      ['account:write', false],
    ]);
  });

  it('refuses no scope, a bad cap and a switched-off scope with a form error, making nothing', async () => {
    await page.goto(`${stack.url}/app/tokens`);
    await page.getByLabel('Name').fill('nothing');
    await page.getByLabel('recordings:read').uncheck();
    await page.getByRole('button', { name: 'Create token' }).click();
    await expect(page.getByRole('alert').textContent()).resolves.toBe('Choose at least one scope.');
    await page.getByLabel('recordings:read').check();
    await page.getByLabel('Daily minute cap (optional)').evaluate((el) => el.removeAttribute('max'));
    await page.getByLabel('Daily minute cap (optional)').fill('100001');
    await page.getByRole('button', { name: 'Create token' }).click();
    await expect(page.getByRole('alert').textContent()).resolves.toBe(
      'The daily cap must be a whole number from 1 to 100,000.',
    );
    // A cap on a token that cannot spend (recordings:read only) is refused: the contract's cap applies to spending tokens.
    await page.getByLabel('Daily minute cap (optional)').fill('50');
    await page.getByRole('button', { name: 'Create token' }).click();
    await expect(page.getByRole('alert').textContent()).resolves.toMatch(
      /^A daily cap applies only to a token that can spend minutes/,
    );
    await page.getByLabel('Daily minute cap (optional)').fill('');
    await page.getByLabel('recordings:query').check();
    await page.getByRole('button', { name: 'Create token' }).click();
    await expect(page.getByRole('alert').textContent()).resolves.toBe(
      'A scope you chose is switched off for your account.',
    );
    // The form kept what was typed.
    await expect(page.getByLabel('Name').inputValue()).resolves.toBe('nothing');
    await expect(page.getByText('You have no active tokens.').count()).resolves.toBe(1);
  });

  it('makes a token that works on the API with plain HTTP while developer mode is on, then revokes it: 401 at once', async () => {
    await page.goto(`${stack.url}/app/tokens`);
    await page.getByRole('button', { name: 'Turn developer mode on' }).click();
    await expect(page.getByText('Developer mode is on: your tokens work.').count()).resolves.toBe(1);
    await page.getByLabel('Name').fill('my agent');
    await page.getByLabel('account:read').check();
    await page.getByLabel('recordings:write').check();
    await page.getByLabel('Expires').selectOption('30');
    await page.getByLabel('Daily minute cap (optional)').fill('120');
    await page.getByRole('button', { name: 'Create token' }).click();
    const value = await page
      .getByRole('textbox', { name: 'Your new token. Copy it now: it is shown only once.' })
      .inputValue();
    expect(value).toMatch(/^svc_/);
    await expect(page.getByRole('button', { name: 'Copy' }).isVisible()).resolves.toBe(true);
    const res = await whoami(value);
    expect(res.status).toBe(200);
    const info = await res.json();
    expect(info.token).toMatchObject({
      name: 'my agent',
      scopes: ['recordings:read', 'recordings:write', 'account:read'],
      dailyMinuteCap: 120,
    });
    expect(Date.parse(info.token.expiresAt) - Date.now()).toBeGreaterThan(29.9 * 24 * 3600_000);
    // A reload of the answer does not send the form again (outside review, session 37): one token so named.
    await page.reload();
    await expect(page.getByRole('row', { name: /my agent/ }).count()).resolves.toBe(1);
    expect(await page.content()).not.toContain(value);
    // Shown once: the page again lists the token, never its value.
    await page.goto(`${stack.url}/app/tokens`);
    expect(await page.content()).not.toContain(value);
    const row = page.getByRole('row', { name: /my agent/ });
    await expect(row.getByRole('cell').nth(1).textContent()).resolves.toBe('120');
    // Revoke asks first: without "Sure" ticked the browser does not send it, and the app refuses it too.
    const revokeUrl = await row.locator('form.revoke').getAttribute('action');
    const csrf = await row.locator('input[name="_csrf"]').inputValue();
    const unconfirmed = await page.request.post(`${stack.url}${revokeUrl}`, {
      form: { _csrf: csrf },
      headers: { origin: stack.url },
    });
    expect(unconfirmed.url()).toMatch(/\/app\/tokens\?done=not-confirmed$/);
    expect((await whoami(value)).status).toBe(200);
    await row.getByRole('button', { name: 'Revoke: my agent' }).click();
    expect(page.url()).toMatch(/\/app\/tokens$/);
    expect((await whoami(value)).status).toBe(200);
    await row.getByRole('checkbox', { name: 'Sure: my agent' }).check();
    await row.getByRole('button', { name: 'Revoke: my agent' }).click();
    await expect(page.getByRole('status').filter({ hasText: 'revoked' }).count()).resolves.toBe(1);
    const after = await whoami(value);
    expect(after.status).toBe(401);
    expect((await after.json()).error.code).toBe('TOKEN_INVALID');
    // Revoked again (another tab's stale page): not found, said as such, not "revoked".
    const again = await page.request.post(`${stack.url}${revokeUrl}`, {
      form: { _csrf: csrf, confirm: 'yes' },
      headers: { origin: stack.url },
    });
    expect(again.url()).toMatch(/\/app\/tokens\?done=not-found$/);
    expect(await again.text()).toContain('That token was not found: it may have been revoked already.');
  });

  it('turns developer mode off: every token answers 403 DEVELOPER_MODE_OFF at once, and works again once on', async () => {
    await page.goto(`${stack.url}/app/tokens`);
    await page.getByLabel('Name').fill('paused');
    await page.getByRole('button', { name: 'Create token' }).click();
    const value = await page.getByRole('textbox', { name: /Copy it now/ }).inputValue();
    expect((await whoami(value)).status).toBe(200);
    await page.getByRole('button', { name: 'Turn developer mode off' }).click();
    await expect(page.getByText(/Developer mode is off/).count()).resolves.toBe(1);
    const off = await whoami(value);
    expect(off.status).toBe(403);
    expect((await off.json()).error.code).toBe('DEVELOPER_MODE_OFF');
    await page.getByRole('button', { name: 'Turn developer mode on' }).click();
    expect((await whoami(value)).status).toBe(200);
  });
});
