import { readFileSync } from 'node:fs';
import type { BrowserContext, Page } from 'playwright-core';
import { startStack, type Stack } from '../support/stack';
import {
  axeBothLanguages,
  launchBrowser,
  onStack,
  seriousViolations,
  signedInContext,
  type TestBrowser,
} from '../support/browser';
import { speakMeeting } from '../support/speak-meeting';
import { waitForStatus } from '../support/wait';

/**
 * Issue 29: a series' people in the browser. The owner makes an invite link, a person of another
 * account accepts it in a second browser context and sees the series' meetings (and cannot delete,
 * rename or share them); the owner removes a member, a member leaves; the owner's email list; the
 * owner deletes the series. Another account's series or invite id is 404 and names nothing.
 */
describe('the app: series invites, members, email list, delete (real browser)', () => {
  let stack: Stack;
  let tb: TestBrowser;
  let owner: BrowserContext;
  let guest: BrowserContext;
  let stranger: BrowserContext;
  let page: Page;
  let gp: Page;
  let seriesId: string;
  let meetingId: string;
  let ownerToken: string;
  let guestId: string;
  const bearer = () => ({ Authorization: `Bearer ${ownerToken}` });
  /** A form post of a signed-in context, with its CSRF field, as a browser would send it. */
  const post = async (ctx: BrowserContext, path: string, form: Record<string, string> = {}) => {
    const p = await ctx.newPage();
    await p.goto(`${stack.url}/app/`);
    const csrf = await p.locator('input[name="_csrf"]').first().inputValue();
    await p.close();
    return ctx.request.post(`${stack.url}${path}`, {
      form: { _csrf: csrf, ...form },
      headers: { origin: stack.url },
      maxRedirects: 0,
    });
  };
  const makeInvite = async () => {
    await page.goto(`${stack.url}/app/series/${seriesId}`);
    await page.getByRole('button', { name: 'Make an invite link' }).click();
    const url = await page.getByLabel('Invite link').inputValue();
    expect(url).toMatch(/\/app\/series-invites\/[A-Za-z0-9_-]{43}$/);
    return onStack(stack.url, url);
  };

  beforeAll(async () => {
    stack = await startStack({ NAMING_AUTO_WAIT_SECONDS: '1' }, { pipeline: true });
    tb = await launchBrowser();
    const account = await stack.admin.account({ displayName: 'Roya', balanceMinutes: 100 });
    ownerToken = (
      await stack.admin.token(account.id, ['recordings:read', 'recordings:write', 'series:read', 'series:write'])
    ).value;
    seriesId = (await stack.api.post('/api/v1/series').set(bearer()).send({ name: 'Design crit', titleStyle: 'TOPIC' }))
      .body.series.id;
    const spoken = await speakMeeting([
      ['awb', 'Hello team. The new logo is ready for review.'],
      ['slt', 'It looks great. We agreed to use it on the website.'],
    ]);
    const sent = await stack.api
      .post('/api/v1/recordings')
      .set(bearer())
      .field('seriesId', seriesId)
      .field('title', 'Logo review')
      .field('naming', 'skip')
      .attach('audio', readFileSync(spoken.path), { filename: 'crit.wav', contentType: 'audio/wav' });
    expect(sent.status).toBe(202);
    meetingId = sent.body.recording.id;
    const last = await waitForStatus(stack, ownerToken, meetingId, (s) => s === 'READY' || s === 'FAILED', 180_000);
    if (last.status !== 'READY') throw new Error(`meeting ended ${JSON.stringify(last)}`);
    owner = await signedInContext(tb.browser, stack, account.id, 'roya@example.test');
    const g = await stack.admin.account({ displayName: 'Bahar' });
    guestId = g.id;
    guest = await signedInContext(tb.browser, stack, g.id, 'bahar@example.test');
    stranger = await signedInContext(
      tb.browser,
      stack,
      (await stack.admin.account({ displayName: 'Kian' })).id,
      'kian@example.test',
    );
    page = await owner.newPage();
    gp = await guest.newPage();
    await page.setViewportSize({ width: 375, height: 800 });
    await gp.setViewportSize({ width: 375, height: 800 });
  }, 300_000);
  afterAll(async () => {
    await tb?.close();
    await stack?.stop();
  });

  it('an invite link accepted in a second browser context: the member sees the meetings and cannot delete, rename or share them', async () => {
    await page.goto(`${stack.url}/app/series/${seriesId}`);
    await expect(page.getByText('No one has joined this series yet.').count()).resolves.toBe(1);
    const link = await makeInvite();
    expect(await seriousViolations(page)).toEqual([]);
    await page.goto(`${stack.url}/app/series/${seriesId}`);
    await axeBothLanguages(page);

    // Another account's person opens it signed in: the series' name and a join button.
    await gp.goto(link);
    await expect(
      gp.getByText('You are invited to join the series “Design crit”.', { exact: false }).count(),
    ).resolves.toBe(1);
    await axeBothLanguages(gp);
    await gp.getByRole('button', { name: 'Join the series' }).click();
    await gp.waitForURL(new RegExp(`/app/series/${seriesId}\\?done=1$`));
    await expect(gp.getByRole('link', { name: 'Logo review' }).count()).resolves.toBe(1);
    // A member sees the members and a way to leave, not the owner's tools.
    await expect(gp.getByRole('button', { name: 'Leave this series' }).count()).resolves.toBe(1);
    await expect(gp.getByRole('button', { name: 'Make an invite link' }).count()).resolves.toBe(0);
    await expect(gp.getByRole('button', { name: 'Delete this series' }).count()).resolves.toBe(0);
    await axeBothLanguages(gp);

    // The meeting opens for the member, without delete; the owner's meeting cannot be deleted, renamed or shared by them.
    await gp.getByRole('link', { name: 'Logo review' }).click();
    await gp.waitForURL(new RegExp(`/app/recordings/${meetingId}`));
    await expect(gp.getByRole('button', { name: 'Delete meeting' }).count()).resolves.toBe(0);
    expect((await post(guest, `/app/recordings/${meetingId}/delete`, { confirm: 'yes' })).status()).toBe(404);
    expect((await post(guest, `/app/recordings/${meetingId}/title`, { title: 'Mine now' })).status()).toBe(404);
    expect((await post(guest, `/app/recordings/${meetingId}/shares`, { expiry: '7' })).status()).toBe(404);
    expect((await stack.api.get(`/api/v1/recordings/${meetingId}/bundle`).set(bearer())).body.recording.title).toBe(
      'Logo review',
    );

    // The link was single use: a third person finds nothing; a guessed id finds nothing.
    const used = await stranger.request.get(link);
    expect(used.status()).toBe(404);
    expect(await used.text()).not.toContain('Design crit');
    const guessed = await stranger.request.get(`${stack.url}/app/series-invites/${'A'.repeat(43)}`);
    expect(guessed.status()).toBe(404);
    expect((await post(stranger, `/app/series-invites/${'A'.repeat(43)}`)).status()).toBe(404);
    // Another account cannot make invites, list members or delete this series.
    expect((await post(stranger, `/app/series/${seriesId}/invites`)).status()).toBe(404);
    expect((await post(stranger, `/app/series/${seriesId}/delete`, { confirm: 'yes' })).status()).toBe(404);
    expect((await post(stranger, `/app/series/${seriesId}/members/${guestId}/remove`)).status()).toBe(404);
    // A member cannot delete the series either.
    expect((await post(guest, `/app/series/${seriesId}/delete`, { confirm: 'yes' })).status()).toBe(404);

    // The owner sees the member.
    await page.goto(`${stack.url}/app/series/${seriesId}`);
    await expect(page.getByRole('region', { name: 'Members' }).getByText('Bahar').count()).resolves.toBe(1);
  }, 240_000);

  it('the owner removes a member; a member leaves', async () => {
    await page.goto(`${stack.url}/app/series/${seriesId}`);
    await page.getByRole('button', { name: 'Remove Bahar from this series' }).click();
    await page.waitForURL(/\?done=1#members$/);
    await expect(page.getByText('No one has joined this series yet.').count()).resolves.toBe(1);
    expect((await guest.request.get(`${stack.url}/app/series/${seriesId}`)).status()).toBe(404);

    const link = await makeInvite();
    await gp.goto(link);
    await gp.getByRole('button', { name: 'Join the series' }).click();
    await gp.waitForURL(new RegExp(`/app/series/${seriesId}\\?done=1$`));
    await gp.getByRole('button', { name: 'Leave this series' }).click();
    await gp.waitForURL(/\/app\/series\?left=1$/);
    await expect(gp.getByRole('status').textContent()).resolves.toBe('You left the series.');
    expect((await guest.request.get(`${stack.url}/app/series/${seriesId}`)).status()).toBe(404);
    // The owner's own link cannot make them a member.
    const own = await makeInvite();
    expect((await post(owner, new URL(own).pathname)).status()).toBe(404);
  }, 120_000);

  it('the owner edits the email list', async () => {
    const shown = await page.goto(`${stack.url}/app/series/${seriesId}`);
    expect(shown?.status()).toBe(200);
    const box = page.getByRole('textbox', { name: /Email list/ });
    await box.fill('sara@example.test\nOmid@Example.test\nsara@example.test\n');
    await page.getByRole('button', { name: 'Save email list' }).click();
    await page.waitForURL(/\?done=1#email-list$/);
    await expect(page.getByRole('textbox', { name: /Email list/ }).inputValue()).resolves.toBe(
      'sara@example.test\nomid@example.test',
    );
    await page.getByRole('textbox', { name: /Email list/ }).fill('not an address');
    await page.getByRole('button', { name: 'Save email list' }).click();
    await page.waitForURL(/emailError=VALIDATION#email-list$/);
    await expect(page.getByRole('alert').count()).resolves.toBe(1);
    await expect(page.getByRole('textbox', { name: /Email list/ }).inputValue()).resolves.toBe(
      'sara@example.test\nomid@example.test',
    );
    // Nobody else reads or writes it.
    expect((await post(stranger, `/app/series/${seriesId}/email-list`, { emails: 'x@example.test' })).status()).toBe(
      404,
    );
    await axeBothLanguages(page);
  }, 60_000);

  it('the owner deletes the series after ticking the confirmation; its meeting stays theirs', async () => {
    await page.goto(`${stack.url}/app/series/${seriesId}`);
    await page.getByRole('button', { name: 'Delete this series' }).click();
    // Not ticked: the browser does not send it.
    expect(page.url()).toContain(`/app/series/${seriesId}`);
    expect((await stack.api.get(`/api/v1/series/${seriesId}`).set(bearer())).status).toBe(200);
    await page.getByLabel('Yes, delete this series').check();
    await page.getByRole('button', { name: 'Delete this series' }).click();
    await page.waitForURL(/\/app\/series\?deleted=1$/);
    await expect(page.getByRole('status').textContent()).resolves.toBe('Series deleted.');
    expect((await stack.api.get(`/api/v1/series/${seriesId}`).set(bearer())).status).toBe(404);
    expect((await owner.request.get(`${stack.url}/app/series/${seriesId}`)).status()).toBe(404);
    expect((await stack.api.get(`/api/v1/recordings/${meetingId}/bundle`).set(bearer())).status).toBe(200);
  }, 60_000);
});
