import { mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { BrowserContext, Page } from 'playwright-core';
import { startStack, type Stack, type TestAccount } from '../support/stack';
import {
  launchBrowser,
  onStack,
  seriousViolations,
  sessionCookies,
  signedInContext,
  type TestBrowser,
} from '../support/browser';
import { startSmtpInbox, type SmtpInbox } from '../support/smtp-inbox';
import { toneWav } from '../support/media';

/** Screenshots of every page (ignored by git): tests/output/app/<page>-<lang>-<width>.png. */
const SHOTS = path.resolve(__dirname, '..', 'output', 'app');

/** Issue 28, slice (c): Persian, accessibility of every page in both languages, sessions, reset by email. */
describe('the app: languages, accessibility, sessions and password reset (real browser)', () => {
  let inbox: SmtpInbox;
  let stack: Stack;
  let tb: TestBrowser;
  let account: TestAccount;
  let context: BrowserContext;
  let page: Page;
  const email = 'mina@example.test';
  let meetingUrl: string;
  let seriesUrl: string;
  let inviteUrl: string;

  beforeAll(async () => {
    inbox = await startSmtpInbox();
    stack = await startStack({ SMTP_URL: inbox.url });
    tb = await launchBrowser();
    account = await stack.admin.account({ displayName: 'Mina' });
    context = await signedInContext(tb.browser, stack, account.id, email);
    page = await context.newPage();
    const token = await stack.admin.token(account.id, ['series:write']);
    const series = await stack.api
      .post('/api/v1/series')
      .set('Authorization', `Bearer ${token.value}`)
      .send({ name: 'Weekly sync' });
    seriesUrl = onStack(stack.url, `${stack.url}/app/series/${series.body.series.id}`);
    const { api, auth } = stack.admin.raw();
    const meeting = await api
      .post(`/admin/v1/accounts/${account.id}/recordings`)
      .set(auth)
      .set('Idempotency-Key', 'app-pages-meeting-1')
      .attach('audio', readFileSync(toneWav(2)), { filename: 'a.wav', contentType: 'audio/wav' });
    meetingUrl = onStack(stack.url, meeting.body.recording.url);
    const other = await stack.admin.account();
    inviteUrl = onStack(stack.url, (await stack.admin.invite(other.id, 'other@example.test')).url);
    mkdirSync(SHOTS, { recursive: true });
  });
  afterAll(async () => {
    await tb?.close();
    await stack?.stop();
    await inbox?.close();
  });

  it('emails the invite link when SMTP is configured (the same link the operator got)', async () => {
    const [mail] = await inbox.waitFor(email);
    expect(mail.subject).toBe('You are invited to Meeting Memory');
    expect(mail.text).toMatch(/http:\/\/127\.0\.0\.1:8080\/app\/invite\/[A-Za-z0-9_-]{43}/);
  });

  it('switches the app to Persian: right to left, Persian labels, and back', async () => {
    await page.goto(`${stack.url}/app/tokens`);
    await page.getByRole('button', { name: 'فارسی' }).click();
    await page.waitForURL(`${stack.url}/app/tokens`);
    await expect(page.locator('html').getAttribute('dir')).resolves.toBe('rtl');
    await expect(page.locator('html').getAttribute('lang')).resolves.toBe('fa');
    await expect(page.getByRole('heading', { level: 1 }).textContent()).resolves.toBe('توکن‌های API');
    await expect(page.getByRole('button', { name: 'ساختن توکن' }).count()).resolves.toBe(1);
    // The setting is the account's (uiLocale): another page, and the API's own view of it, agree.
    await page.goto(`${stack.url}/app/sessions`);
    await expect(page.getByRole('heading', { level: 1 }).textContent()).resolves.toBe('نشست‌ها');
    await page.getByRole('button', { name: 'English' }).click();
    await expect(page.locator('html').getAttribute('dir')).resolves.toBe('ltr');
  });

  it('has no serious or critical accessibility violation on any page, in English and in Persian (screenshots at 375 and 1280 px)', async () => {
    const signedOut = await tb.browser.newContext();
    const visitor = await signedOut.newPage();
    const found: string[] = [];
    const check = async (p: Page, name: string, url: string, lang: string) => {
      await p.goto(url);
      for (const v of await seriousViolations(p)) found.push(`${name} (${lang}): ${v}`);
      for (const width of [375, 1280]) {
        await p.setViewportSize({ width, height: 900 });
        await p.screenshot({ path: path.join(SHOTS, `${name}-${lang}-${width}.png`), fullPage: true });
      }
    };
    for (const lang of ['en', 'fa']) {
      const q = `?lang=${lang}`;
      await check(visitor, 'sign-in', `${stack.url}/app/sign-in${q}`, lang);
      await check(visitor, 'reset', `${stack.url}/app/reset${q}`, lang);
      await check(visitor, 'set-password', `${inviteUrl}${q}`, lang);
      await check(visitor, 'unknown-path-signed-out', `${stack.url}/app/no-such-page${q}`, lang);
      if (lang === 'fa') {
        await page.goto(`${stack.url}/app/`);
        await page.getByRole('button', { name: 'فارسی' }).click();
      }
      for (const [name, url] of [
        ['home', '/app/'],
        ['tokens', '/app/tokens'],
        ['sessions', '/app/sessions'],
        ['not-found', '/app/recordings/rec_nothing'],
        ['unknown-path', '/app/no-such-page/x'],
      ]) {
        await check(page, name, `${stack.url}${url}`, lang);
      }
      await check(page, 'meeting', meetingUrl, lang);
      await check(page, 'naming', `${meetingUrl}/naming`, lang);
      await check(page, 'series', seriesUrl, lang);
      await expect(page.locator('html').getAttribute('dir')).resolves.toBe(lang === 'fa' ? 'rtl' : 'ltr');
    }
    await page.getByRole('button', { name: 'English' }).click();
    await signedOut.close();
    expect(found).toEqual([]);
  });

  it("answers an unknown path of the app 404 with its own Not-found page, signed in or out, in the viewer's language", async () => {
    const signedOut = await tb.browser.newContext();
    const visitor = await signedOut.newPage();
    for (const [p, lang, title] of [
      [page, 'en', 'Not found'],
      [visitor, 'fa', 'پیدا نشد'],
    ] as const) {
      const answer = await p.goto(`${stack.url}/app/no-such-page/x?lang=${lang}`);
      expect(answer?.status()).toBe(404);
      expect(answer?.headers()['content-type']).toMatch(/^text\/html/);
      await expect(p.locator('html').getAttribute('lang')).resolves.toBe(lang);
      await expect(p.title()).resolves.toContain(title);
    }
    await signedOut.close();
  });

  it('answers a malformed id in a link with the same Not-found page as a missing one, not JSON', async () => {
    // (A malformed %-escape such as %ZZ is refused at the edge, 400, before any service reads the path.)
    for (const id of ['rec_AAAAAAAAAAAAAAAA%00', 'a'.repeat(300), 'rec_%20%3Cb%3E']) {
      const answer = await page.goto(`${stack.url}/app/recordings/${id}`);
      expect({ id, status: answer?.status(), type: answer?.headers()['content-type'] }).toEqual({
        id,
        status: 404,
        type: expect.stringMatching(/^text\/html/),
      });
      await expect(page.getByRole('heading', { level: 1 }).textContent()).resolves.toBe('Not found');
    }
  });

  it('keeps a meeting whose title is one long word within the page, at 375 and 1280 px', async () => {
    const { api, auth } = stack.admin.raw();
    const id = meetingUrl.split('/').pop()!;
    const renamed = await api
      .patch(`/admin/v1/recordings/${id}`)
      .set(auth)
      .send({ title: 'A'.repeat(200) });
    expect(renamed.status).toBe(200);
    for (const width of [375, 1280]) {
      await page.setViewportSize({ width, height: 900 });
      for (const url of [meetingUrl, `${stack.url}/app/meetings`]) {
        await page.goto(url);
        const widths = await page.evaluate(() => [document.documentElement.scrollWidth, window.innerWidth]);
        expect({ url, width, scroll: widths[0] }).toEqual({ url, width, scroll: widths[1] });
      }
    }
    await page.setViewportSize({ width: 1280, height: 900 });
  });

  it('lists the sessions and signs out every other one: the other browser is signed out', async () => {
    const other = await tb.browser.newContext();
    const theirs = await other.newPage();
    await theirs.goto(`${stack.url}/app/sign-in`);
    await theirs.getByLabel('Email').fill(email);
    await theirs.getByLabel('Password', { exact: true }).fill('a long river of tea');
    await theirs.getByRole('button', { name: 'Sign in' }).click();
    await theirs.waitForURL(`${stack.url}/app/`);
    await page.goto(`${stack.url}/app/sessions`);
    await expect(page.getByRole('row').count()).resolves.toBe(3);
    await expect(page.getByText('This browser').count()).resolves.toBe(1);
    await page.getByRole('button', { name: 'Sign out every other session' }).click();
    await expect(page.getByText('Every other session is signed out.').count()).resolves.toBe(1);
    await expect(page.getByRole('row').count()).resolves.toBe(2);
    await theirs.goto(`${stack.url}/app/tokens`);
    await theirs.waitForURL(/\/app\/sign-in\?next=/);
    expect(await sessionCookies(other)).toEqual([]);
    await other.close();
  });

  it('resets the password through the emailed link: single use, the old password and every session end', async () => {
    const fresh = await tb.browser.newContext();
    const p = await fresh.newPage();
    await p.goto(`${stack.url}/app/sign-in`);
    await p.getByRole('link', { name: 'Forgot your password?' }).click();
    await p.getByLabel('Email').fill(email);
    // The answer does not wait for the mail (it would take longer for an email of an account than for
    // one of none): the mail server holds the message while the page already says the link is on its way.
    const release = inbox.hold();
    await p.getByRole('button', { name: 'Email me a link' }).click();
    await expect(p.getByRole('status').textContent()).resolves.toContain('a link is on its way');
    expect(inbox.to(email)).toHaveLength(1);
    release();
    const mails = await inbox.waitFor(email, 2);
    const link = /http:\/\/\S+\/app\/reset\/[A-Za-z0-9_-]{43}/.exec(mails[1].text ?? '')![0];
    await p.goto(onStack(stack.url, link));
    await p.getByLabel('New password', { exact: true }).fill('a brand new kettle');
    await p.getByLabel('New password again').fill('a brand new kettle');
    await p.getByRole('button', { name: 'Set password and sign in' }).click();
    await p.waitForURL(`${stack.url}/app/`);
    expect((await p.goto(onStack(stack.url, link)))?.status()).toBe(410);
    // The session that was signed in before the reset is signed out.
    await page.goto(`${stack.url}/app/tokens`);
    await page.waitForURL(/\/app\/sign-in\?next=/);
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password', { exact: true }).fill('a long river of tea');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect(page.getByRole('alert').textContent()).resolves.toBe(
      'That email and password do not match an account.',
    );
    await fresh.close();
  });

  it('says series are switched off for an account whose series are, instead of an empty list and a form that cannot work', async () => {
    const off = await stack.admin.account({ displayName: 'Nima' });
    const { api, auth } = stack.admin.raw();
    expect(
      (
        await api
          .patch(`/admin/v1/accounts/${off.id}`)
          .set(auth)
          .send({ features: { series: false } })
      ).status,
    ).toBe(200);
    const context = await signedInContext(tb.browser, stack, off.id, 'nima@example.test');
    const p = await context.newPage();
    await p.goto(`${stack.url}/app/series`);
    await expect(
      p.getByText('Series are switched off for your account for now.', { exact: false }).count(),
    ).resolves.toBe(1);
    await expect(p.locator('form[action="/app/series"]').count()).resolves.toBe(0);
    await expect(p.getByText('No series yet').count()).resolves.toBe(0);
    await context.close();
  });
});
