import type { BrowserContext, Page } from 'playwright-core';
import { startStack, type Stack, type TestToken } from '../support/stack';
import { axeBothLanguages, launchBrowser, signedInContext, type TestBrowser } from '../support/browser';

/** Issue 29: series in the browser: create, keyterms, the series' Ask tab; someone else's is 404. */
describe('the app: managing series (real browser)', () => {
  let stack: Stack;
  let tb: TestBrowser;
  let token: TestToken;
  let accountId: string;
  let owner: BrowserContext;
  let page: Page;
  beforeAll(async () => {
    stack = await startStack();
    tb = await launchBrowser();
    const account = await stack.admin.account({ displayName: 'Roya' });
    accountId = account.id;
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
    // A name the service refuses (only spaces, past the browser's own checks) says the rule.
    await page.getByLabel('Name', { exact: true }).fill('   ');
    await page.getByLabel('Name', { exact: true }).evaluate((el) => el.removeAttribute('required'));
    await page.getByRole('button', { name: 'Create series' }).click();
    await page.waitForURL(/\?error=VALIDATION$/);
    await expect(page.getByRole('alert').textContent()).resolves.toBe(
      'A series name is 1 to 60 characters, with no control characters.',
    );

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

  it("edits a series' settings (name, upload defaults, titles); a taken name is said, another account's series is 404", async () => {
    const write = await stack.admin.token(accountId, ['series:write']);
    const made = async (name: string) =>
      (await stack.api.post('/api/v1/series').set('Authorization', `Bearer ${write.value}`).send({ name }).expect(201))
        .body.series.id as string;
    const id = await made('Weekly sync');
    await made('Board');

    await page.goto(`${stack.url}/app/series/${id}`);
    const settings = page.getByRole('region', { name: 'Series settings' });
    await expect(settings.getByLabel('Name', { exact: true }).inputValue()).resolves.toBe('Weekly sync');
    await expect(settings.getByLabel('Calendar of the date in titles').inputValue()).resolves.toBe('AUTO');
    await settings.getByLabel('Name', { exact: true }).fill('  Weekly   planning ');
    await settings.getByLabel('Kind of new meetings').selectOption('LECTURE');
    await settings.getByLabel('Digest language of new meetings').selectOption('FA');
    await settings.getByLabel('Meeting titles').selectOption('TOPIC');
    await settings.getByLabel('Calendar of the date in titles').selectOption('JALALI');
    await settings.getByRole('button', { name: 'Save settings' }).click();
    await page.waitForURL(/\?done=1#settings$/);
    await expect(page.getByRole('heading', { level: 1 }).textContent()).resolves.toBe('Weekly planning');
    const after = await stack.api.get(`/api/v1/series/${id}`).set('Authorization', `Bearer ${token.value}`);
    expect(after.body.series).toMatchObject({
      name: 'Weekly planning',
      defaultKind: 'LECTURE',
      defaultOutputLanguage: 'FA',
      titleStyle: 'TOPIC',
      dateCalendar: 'JALALI',
    });
    // The form shows what is saved.
    await expect(settings.getByLabel('Kind of new meetings').inputValue()).resolves.toBe('LECTURE');
    await expect(settings.getByLabel('Calendar of the date in titles').inputValue()).resolves.toBe('JALALI');
    await axeBothLanguages(page);

    // Another of the owner's names (any case): refused in the page, nothing changed.
    await settings.getByLabel('Name', { exact: true }).fill('BOARD');
    await settings.getByLabel('Kind of new meetings').selectOption('CALL');
    await settings.getByRole('button', { name: 'Save settings' }).click();
    await page.waitForURL(/\?settingsError=SERIES_NAME_TAKEN#settings$/);
    await expect(settings.getByRole('alert').textContent()).resolves.toBe('You already have a series of that name.');
    const kept = await stack.api.get(`/api/v1/series/${id}`).set('Authorization', `Bearer ${token.value}`);
    expect(kept.body.series).toMatchObject({ name: 'Weekly planning', defaultKind: 'LECTURE' });

    // Another account cannot change it: the app's 404, and the series is as it was.
    const other = await stack.admin.account();
    const stranger = await signedInContext(tb.browser, stack, other.id, 'settings-stranger@example.test');
    const sp = await stranger.newPage();
    await sp.goto(`${stack.url}/app/`);
    const csrf = await sp.locator('input[name="_csrf"]').first().inputValue();
    const post = await stranger.request.post(`${stack.url}/app/series/${id}/settings`, {
      form: { _csrf: csrf, name: 'Taken over' },
      headers: { origin: stack.url },
      maxRedirects: 0,
    });
    expect(post.status()).toBe(404);
    const still = await stack.api.get(`/api/v1/series/${id}`).set('Authorization', `Bearer ${token.value}`);
    expect(still.body.series.name).toBe('Weekly planning');
    await stranger.close();
  }, 120_000);
});
