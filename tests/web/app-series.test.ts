import type { BrowserContext, Page } from 'playwright-core';
import { startStack, type Stack, type TestToken } from '../support/stack';
import { axeBothLanguages, launchBrowser, signedInContext, type TestBrowser } from '../support/browser';

/** Issue 29: series in the browser: create, keyterms, the series' Ask tab; someone else's is 404. */
describe('the app: managing series (real browser)', () => {
  let stack: Stack;
  let tb: TestBrowser;
  let token: TestToken;
  let owner: BrowserContext;
  let page: Page;
  beforeAll(async () => {
    stack = await startStack();
    tb = await launchBrowser();
    const account = await stack.admin.account({ displayName: 'Roya' });
    token = await stack.admin.token(account.id, ['series:read']);
    owner = await signedInContext(tb.browser, stack, account.id, 'roya@example.test');
    page = await owner.newPage();
    await page.setViewportSize({ width: 375, height: 800 });
  }, 60_000);
  afterAll(async () => {
    await tb?.close();
    await stack?.stop();
  });

  it('creates a series (a taken name is said in the page), edits its keyterms, and opens its Ask tab', async () => {
    await page.goto(`${stack.url}/app/series`);
    await axeBothLanguages(page);
    await page.getByLabel('Name', { exact: true }).fill('Design reviews');
    await page.getByLabel('Meeting titles').selectOption('TOPIC');
    await page.getByRole('button', { name: 'Create series' }).click();
    await page.waitForURL(/\/app\/series\/[^/?]+\?done=1$/);
    await expect(page.getByRole('heading', { level: 1 }).textContent()).resolves.toBe('Design reviews');
    const id = /\/app\/series\/([^/?]+)/.exec(page.url())![1];
    const made = await stack.api.get(`/api/v1/series/${id}`).set('Authorization', `Bearer ${token.value}`);
    expect(made.body.series).toMatchObject({ name: 'Design reviews', titleStyle: 'TOPIC', access: 'owner' });

    await page.goto(`${stack.url}/app/series`);
    await page.getByLabel('Name', { exact: true }).fill('design REVIEWS');
    await page.getByRole('button', { name: 'Create series' }).click();
    await page.waitForURL(/\?error=SERIES_NAME_TAKEN$/);
    await expect(page.getByRole('alert').textContent()).resolves.toBe('You already have a series of that name.');

    await page.goto(`${stack.url}/app/series/${id}`);
    // The series' two views are named as the series', and the main nav marks Series.
    await expect(page.getByRole('navigation', { name: 'Series views' }).count()).resolves.toBe(1);
    await expect(
      page.getByRole('navigation', { name: 'Main' }).locator('a[aria-current="page"]').allTextContents(),
    ).resolves.toEqual(['Series']);
    await page.getByRole('textbox', { name: /Keyterms of this series/ }).fill('Kubernetes\nzephyrquill\n');
    await page.getByLabel("Also use my account's keyterms").uncheck();
    await page.getByRole('button', { name: 'Save keyterms' }).click();
    await page.waitForURL(/\?done=1#keyterms$/);
    const kt = await stack.api.get(`/api/v1/series/${id}/keyterms`).set('Authorization', `Bearer ${token.value}`);
    expect(kt.body).toMatchObject({ keyterms: ['Kubernetes', 'zephyrquill'], inheritAccountKeyterms: false });
    await axeBothLanguages(page);

    await page.getByRole('link', { name: 'Ask' }).click();
    await page.waitForURL(/\?tab=ask$/);
    await expect(
      page.getByText('A series can be asked once it has at least 2 finished meetings.').count(),
    ).resolves.toBe(1);
    await axeBothLanguages(page);

    // Another account: the series and its keyterms are not found, nothing said of them.
    const other = await stack.admin.account();
    const stranger = await signedInContext(tb.browser, stack, other.id, 'other-roya@example.test');
    const res = await stranger.request.get(`${stack.url}/app/series/${id}`);
    expect(res.status()).toBe(404);
    expect(await res.text()).not.toContain('Design reviews');
    const sp = await stranger.newPage();
    await sp.goto(`${stack.url}/app/`);
    const csrf = await sp.locator('input[name="_csrf"]').first().inputValue();
    const put = await stranger.request.post(`${stack.url}/app/series/${id}/keyterms`, {
      form: { _csrf: csrf, keyterms: 'x' },
      headers: { origin: stack.url },
      maxRedirects: 0,
    });
    expect(put.status()).toBe(404);
    await stranger.close();
  }, 120_000);
});
