import { readFileSync } from 'node:fs';
import type { Page } from 'playwright-core';
import { startStack, type Stack } from '../support/stack';
import {
  axeBothLanguages,
  launchBrowser,
  seriousViolations,
  signedInContext,
  type TestBrowser,
} from '../support/browser';
import { toneWav } from '../support/media';

/**
 * The meetings list's filters (issue 29): series, kind and dates are sent in the URL and kept
 * there (the form shows them again, a link can be shared), at 375 px, with no serious axe
 * violation in English or Persian.
 */
let stack: Stack;
let tb: TestBrowser;
let page: Page;
beforeAll(async () => {
  stack = await startStack();
  tb = await launchBrowser();
}, 60_000);
afterAll(async () => {
  await tb?.close();
  await stack?.stop();
});

it('filters by series, kind and dates, keeping them in the URL, in both languages at 375 px', async () => {
  const account = await stack.admin.account({ balanceMinutes: 30 });
  const token = await stack.admin.token(account.id, ['recordings:write', 'series:write']);
  const auth = { Authorization: `Bearer ${token.value}` };
  const made = await stack.api.post('/api/v1/series').set(auth).send({ name: 'Board' });
  expect(made.status).toBe(201);
  const seriesId = made.body.series.id as string;
  for (const [title, series] of [
    ['Budget review', seriesId],
    ['Hallway chat', null],
  ] as const) {
    const req = stack.api.post('/api/v1/recordings').set(auth).field('title', title);
    if (series) req.field('seriesId', series);
    const r = await req.attach('audio', readFileSync(toneWav(2)), { filename: 'a.wav', contentType: 'audio/wav' });
    expect(r.status).toBe(202);
  }
  const ctx = await signedInContext(tb.browser, stack, account.id, 'lists@example.test');
  page = await ctx.newPage();
  await page.setViewportSize({ width: 375, height: 800 });
  await page.goto(`${stack.url}/app/meetings`);
  await page.locator('select[name=seriesId]').selectOption(seriesId);
  await page.locator('select[name=kind]').selectOption('LECTURE');
  await page.locator('input[name=from]').fill('2024-01-01');
  await page.locator('input[name=to]').fill('2030-12-31');
  await page.getByRole('button', { name: 'Show' }).click();
  await page.waitForURL(/\/app\/meetings\?/);
  const url = new URL(page.url());
  expect(Object.fromEntries(url.searchParams)).toMatchObject({
    seriesId,
    kind: 'LECTURE',
    from: '2024-01-01',
    to: '2030-12-31',
  });
  // Opened again from its URL, the form shows the filters; the series' meeting in progress only.
  await page.goto(url.toString());
  await expect(page.locator('select[name=seriesId]').inputValue()).resolves.toBe(seriesId);
  await expect(page.locator('select[name=kind]').inputValue()).resolves.toBe('LECTURE');
  await expect(page.locator('input[name=from]').inputValue()).resolves.toBe('2024-01-01');
  await expect(page.locator('input[name=to]').inputValue()).resolves.toBe('2030-12-31');
  const main = (await page.locator('main').textContent()) ?? '';
  expect(main).toContain('Budget review');
  expect(main).not.toContain('Hallway chat');
  // The kinds in the page's language (the value sent stays the contract's).
  await expect(page.locator('select[name=kind] option[value=LECTURE]').textContent()).resolves.toBe('Lecture');
  await axeBothLanguages(page);
  await ctx.close();
}, 120_000);

it("takes the Persian page's dates as year-month-day in Persian digits, Solar Hijri or Gregorian, shown back in the Solar Hijri calendar", async () => {
  const account = await stack.admin.account({ balanceMinutes: 30 });
  const ctx = await signedInContext(tb.browser, stack, account.id, 'lists-fa@example.test');
  const fa = await ctx.newPage();
  await fa.setViewportSize({ width: 375, height: 800 });
  await fa.goto(`${stack.url}/app/meetings`);
  await fa.getByRole('button', { name: 'فارسی' }).click();
  await fa.waitForFunction("document.documentElement.dir === 'rtl'");
  // Not the browser's mm/dd/yyyy: a field that says its format.
  const from = fa.getByRole('textbox', { name: 'از', exact: true });
  const to = fa.getByRole('textbox', { name: 'تا', exact: true });
  await expect(from.getAttribute('placeholder')).resolves.toBe('۱۴۰۳-۰۱-۱۵');
  await expect(fa.locator('#day-from-hint').textContent()).resolves.toContain('خورشیدی یا میلادی');
  // Each label sits just above its field (the review found them 10rem apart), at 375 and 1280 px,
  // and at 1280 px the day fields start level with the search field.
  for (const width of [375, 1280]) {
    await fa.setViewportSize({ width, height: 800 });
    for (const name of ['from', 'to']) {
      const label = (await fa.locator(`label[for="day-${name}"]`).boundingBox())!;
      const field = (await fa.locator(`#day-${name}`).boundingBox())!;
      expect(label.height).toBeLessThan(40);
      expect(field.y - label.y).toBeLessThan(48);
    }
  }
  const search = (await fa.locator('input[name=q]').boundingBox())!;
  const day = (await fa.locator('#day-from').boundingBox())!;
  expect(Math.abs(search.y - day.y)).toBeLessThan(6);
  await fa.screenshot({ path: '/tmp/fa-filters-1280-after.png' });
  await fa.setViewportSize({ width: 375, height: 800 });
  await from.fill('۱۴۰۳-۰۱-۰۱');
  await to.fill('۲۰۳۰-۱۲-۳۱');
  await fa.getByRole('button', { name: 'نمایش' }).click();
  await fa.waitForURL(/\/app\/meetings\?/);
  // Read by the app: shown back in the Solar Hijri calendar, the chosen day in words beside it.
  await expect(from.inputValue()).resolves.toBe('۱۴۰۳-۰۱-۰۱');
  await expect(to.inputValue()).resolves.toBe('۱۴۰۹-۱۰-۱۰');
  await expect(fa.locator('#day-from-hint').textContent()).resolves.toBe('برگزیده: ۱ فروردین ۱۴۰۳');
  await expect(fa.locator('#day-to-hint').textContent()).resolves.toBe('برگزیده: ۱۰ دی ۱۴۰۹');
  // A day that does not exist (1402 has no 30 Esfand) is not taken.
  await fa.goto(`${stack.url}/app/meetings?from=${encodeURIComponent('۱۴۰۲-۱۲-۳۰')}`);
  await expect(from.inputValue()).resolves.toBe('');
  expect(await seriousViolations(fa)).toEqual([]);
  // The English page keeps the browser's date field, with the Gregorian day.
  await fa.getByRole('button', { name: 'English' }).click();
  await fa.waitForFunction("document.documentElement.dir === 'ltr'");
  await fa.goto(`${stack.url}/app/meetings?from=${encodeURIComponent('۱۴۰۳-۰۱-۰۱')}`);
  await expect(fa.locator('input[name=from]').getAttribute('type')).resolves.toBe('date');
  await expect(fa.locator('input[name=from]').inputValue()).resolves.toBe('2024-03-20');
  await ctx.close();
}, 120_000);

it('says so when the service refuses a filter (a series not readable, a cursor it never made), instead of an empty list alone', async () => {
  const account = await stack.admin.account();
  const ctx = await signedInContext(tb.browser, stack, account.id, 'refused-filters@example.test');
  const p = await ctx.newPage();
  await p.goto(`${stack.url}/app/meetings?seriesId=ser_not_one_of_mine`);
  await expect(p.getByRole('alert').textContent()).resolves.toBe(
    'That series is not one you can read; nothing is listed for it.',
  );
  await p.goto(`${stack.url}/app/meetings?q=budget&seriesId=ser_not_one_of_mine`);
  await expect(p.getByRole('alert').textContent()).resolves.toBe(
    'That series is not one you can read; nothing is listed for it.',
  );
  await p.goto(`${stack.url}/app/meetings?cursor=not-a-cursor`);
  await expect(p.getByRole('alert').textContent()).resolves.toMatch(/^These filters were refused \(VALIDATION\)/);
  // A filter the service takes says nothing of the kind.
  await p.goto(`${stack.url}/app/meetings?kind=LECTURE`);
  await expect(p.getByRole('alert').count()).resolves.toBe(0);
  await ctx.close();
});
