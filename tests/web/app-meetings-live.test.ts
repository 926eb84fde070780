import { readFileSync } from 'node:fs';
import type { BrowserContext, Page } from 'playwright-core';
import { startStack, type Stack, type TestToken } from '../support/stack';
import { launchBrowser, seriousViolations, signedInContext, type TestBrowser } from '../support/browser';
import { silence } from '../support/speak-meeting';
import { waitForStatus } from '../support/wait';

/**
 * Issue 29: the meetings list shows meetings at every status (in progress and failed too), and
 * follows them live (a short poll of what the events feed says), without the person reloading.
 */
describe('the app: the meetings list, live (real browser)', () => {
  let stack: Stack;
  let tb: TestBrowser;
  let token: TestToken;
  let owner: BrowserContext;
  let page: Page;

  beforeAll(async () => {
    // One silent meeting a day fails for free with NO_SPEECH, and the pipeline does not retry it.
    stack = await startStack({ FREE_SILENT_MEETINGS_PER_DAY: '1', PIPELINE_AUTO_RETRIES: '0' }, { pipeline: true });
    tb = await launchBrowser();
    const account = await stack.admin.account({ displayName: 'Shirin', balanceMinutes: 100 });
    token = await stack.admin.token(account.id, ['recordings:read', 'recordings:write']);
    owner = await signedInContext(tb.browser, stack, account.id, 'shirin@example.test');
    page = await owner.newPage();
    await page.setViewportSize({ width: 375, height: 800 });
  }, 60_000);
  afterAll(async () => {
    await tb?.close();
    await stack?.stop();
  });

  it("lists a meeting sent while the page is open, follows it to FAILED, and leaves out another account's", async () => {
    await page.goto(`${stack.url}/app/meetings`);
    const unfinished = page.getByRole('region', { name: 'In progress and failed' });
    await expect(unfinished.getByText('Nothing in progress.').count()).resolves.toBe(1);
    // An account with no meetings at all is told so; a search that finds nothing says nothing matched.
    await expect(page.getByText('No meetings yet.').count()).resolves.toBe(1);
    await page.goto(`${stack.url}/app/meetings?q=nothingmatcheszzz`);
    await expect(page.getByText('No meeting matches these filters.').count()).resolves.toBe(1);
    await page.goto(`${stack.url}/app/meetings`);
    // Another account's meeting never shows here.
    const other = await stack.admin.account();
    const otherToken = await stack.admin.token(other.id, ['recordings:write']);
    const wav = readFileSync(await silence(4));
    const theirs = await stack.api
      .post('/api/v1/recordings')
      .set('Authorization', `Bearer ${otherToken.value}`)
      .field('title', 'Not yours')
      .attach('audio', wav, { filename: 's.wav', contentType: 'audio/wav' });
    expect(theirs.status).toBe(202);
    // Sent by a token while the page is open: it appears without a reload by the person.
    const sent = await stack.api
      .post('/api/v1/recordings')
      .set('Authorization', `Bearer ${token.value}`)
      .field('title', 'Quiet room')
      .attach('audio', wav, { filename: 's.wav', contentType: 'audio/wav' });
    expect(sent.status).toBe(202);
    const id = sent.body.recording.id as string;
    const item = unfinished.locator(`li:has(a[href="/app/recordings/${id}"])`);
    await item.waitFor({ timeout: 30_000 });
    await expect(item.locator('a').textContent()).resolves.toBe('Quiet room');
    // It moves on by itself to FAILED (NO_SPEECH), still listed, with its status.
    const failed = await waitForStatus(stack, token.value, id, (s) => s === 'FAILED' || s === 'READY', 120_000);
    expect(failed.status).toBe('FAILED');
    await unfinished
      .locator(`li[data-status="FAILED"]:has(a[href="/app/recordings/${id}"])`)
      .waitFor({ timeout: 30_000 });
    await expect(item.locator('.status').textContent()).resolves.toBe('Failed');
    expect(await page.content()).not.toContain('Not yours');
    expect(await seriousViolations(page)).toEqual([]);
    await page.getByRole('button', { name: 'فارسی' }).click();
    await page.waitForFunction(() => document.documentElement.dir === 'rtl');
    expect(await seriousViolations(page)).toEqual([]);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
    await page.getByRole('button', { name: 'English' }).click();
    // Its page says why in words, not the code.
    await page.goto(`${stack.url}/app/recordings/${id}`);
    await expect(page.getByText('No speech was found in the audio. Nothing was charged.').count()).resolves.toBe(1);
    expect(await page.content()).not.toContain('NO_SPEECH');
    // A deleted meeting leaves the list.
    await page.getByLabel('Yes, delete this meeting').check();
    await page.getByRole('button', { name: 'Delete meeting' }).click();
    await page.waitForURL(/\/deleted$/);
    await page.goto(`${stack.url}/app/meetings`);
    await expect(page.locator(`a[href="/app/recordings/${id}"]`).count()).resolves.toBe(0);
  }, 240_000);
});
