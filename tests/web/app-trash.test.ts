import { readFileSync } from 'node:fs';
import type { BrowserContext, Page } from 'playwright-core';
import { CSRF_FIELD } from '@mm/http';
import { startStack, type Stack, type TestToken } from '../support/stack';
import { axeBothLanguages, launchBrowser, signedInContext, type TestBrowser } from '../support/browser';
import { toneWav } from '../support/media';
import { waitForEvent } from '../support/wait';

/**
 * Issue 29, the trash: the meeting page's delete puts the meeting in the trash page (with when it
 * is gone for good); restored from there, the API answers it again and the feed says
 * recording.updated restored. Another account sees nothing of it and cannot restore it (404).
 */
describe('the app: the trash (real browser)', () => {
  let stack: Stack;
  let tb: TestBrowser;
  let token: TestToken;
  let owner: BrowserContext;
  let page: Page;
  let id: string;
  const api = (path: string) => stack.api.get(`/api/v1${path}`).set({ Authorization: `Bearer ${token.value}` });

  beforeAll(async () => {
    stack = await startStack({ TRASH_DAYS: '30' });
    tb = await launchBrowser();
    const account = await stack.admin.account({ displayName: 'Parisa', balanceMinutes: 30 });
    token = await stack.admin.token(account.id, ['recordings:read', 'recordings:write']);
    const sent = await stack.api
      .post('/api/v1/recordings')
      .set({ Authorization: `Bearer ${token.value}` })
      .field('title', 'Quarterly budget')
      .attach('audio', readFileSync(toneWav(2)), { filename: 'a.wav', contentType: 'audio/wav' });
    expect(sent.status).toBe(202);
    id = sent.body.recording.id;
    owner = await signedInContext(tb.browser, stack, account.id, 'parisa@example.test');
    page = await owner.newPage();
    await page.setViewportSize({ width: 375, height: 800 });
  }, 60_000);
  afterAll(async () => {
    await tb?.close();
    await stack?.stop();
  });

  it('deletes from the meeting page into the trash, restores from the trash: 200 again and recording.updated restored', async () => {
    await page.goto(`${stack.url}/app/trash`);
    await expect(page.getByText('The trash is empty.').isVisible()).resolves.toBe(true);
    await page.goto(`${stack.url}/app/recordings/${id}`);
    await page.getByLabel('Yes, delete this meeting').check();
    await page.getByRole('button', { name: 'Delete meeting' }).click();
    await page.waitForURL(new RegExp(`/app/recordings/${id}/deleted$`));
    expect((await api(`/recordings/${id}/status`)).status).toBe(404);
    await waitForEvent(stack, token.value, id, 'recording.deleted');
    // The meeting's url (the API's `url`) is still 404, but tells its owner where the meeting went.
    const opened = await page.goto(`${stack.url}/app/recordings/${id}`);
    expect(opened!.status()).toBe(404);
    await expect(page.getByText('The meeting is deleted').count()).resolves.toBe(1);
    await expect(page.getByRole('button', { name: 'Restore meeting' }).count()).resolves.toBe(1);

    await page.getByRole('link', { name: 'Open the trash' }).click();
    await page.waitForURL(/\/app\/trash$/);
    const item = page.locator('ul.trash li');
    await expect(item.count()).resolves.toBe(1);
    const text = (await item.textContent()) ?? '';
    expect(text).toContain('Quarterly budget');
    // When it was deleted and when it goes for good: two different days.
    const [, deletedOn, goneOn] = /Deleted (.+) · gone for good (.+)$/m.exec(text.replace(/\s+/g, ' ').trim()) ?? [];
    expect(deletedOn).toBeTruthy();
    expect(goneOn).toBeTruthy();
    expect(goneOn).not.toBe(deletedOn);
    expect(await page.locator('main').textContent()).toContain('stay here 30 days');
    await axeBothLanguages(page);

    // Another account: its trash shows nothing of the meeting, and a restore of its id is 404.
    const other = await stack.admin.account();
    const stranger = await signedInContext(tb.browser, stack, other.id, 'someone@example.test');
    const strangerPage = await stranger.newPage();
    await strangerPage.goto(`${stack.url}/app/trash`);
    expect(await strangerPage.locator('main').textContent()).not.toContain('Quarterly budget');
    const csrf = await strangerPage.locator(`input[name="${CSRF_FIELD}"]`).first().inputValue();
    const refused = await stranger.request.post(`${stack.url}/app/recordings/${id}/restore`, {
      form: { [CSRF_FIELD]: csrf },
      headers: { origin: stack.url },
      maxRedirects: 0,
    });
    expect(refused.status()).toBe(404);
    expect(await refused.text()).not.toContain('Quarterly budget');
    // To another account the url is the plain 404 of a missing meeting.
    const strangerOpens = await stranger.request.get(`${stack.url}/app/recordings/${id}`);
    expect(strangerOpens.status()).toBe(404);
    expect(await strangerOpens.text()).not.toContain('deleted');
    await stranger.close();
    expect((await api(`/recordings/${id}/status`)).status).toBe(404);

    await page.getByRole('button', { name: 'Restore meeting' }).click();
    await page.waitForURL(new RegExp(`/app/recordings/${id}\\?done=1$`));
    expect((await api(`/recordings/${id}/status`)).status).toBe(200);
    await waitForEvent(stack, token.value, id, 'recording.updated');
    const events = await api('/events?limit=500');
    const restored = events.body.events.filter(
      (e: { recordingId: string; type: string; data: { change?: string } }) =>
        e.recordingId === id && e.type === 'recording.updated' && e.data.change === 'restored',
    );
    expect(restored).toHaveLength(1);
    await page.goto(`${stack.url}/app/trash`);
    await expect(page.locator('ul.trash li').count()).resolves.toBe(0);
  }, 120_000);
});
