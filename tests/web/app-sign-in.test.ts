import { readFileSync } from 'node:fs';
import type { BrowserContext, Page } from 'playwright-core';
import { startStack, type Stack, type TestAccount } from '../support/stack';
import { launchBrowser, onStack, sessionCookies, signedInContext, type TestBrowser } from '../support/browser';
import { toneWav } from '../support/media';

/** Issue 28, slice (a): an invite link → a password → signed in; sign-in refuses alike; the API's links open pages. */
describe('the app: invite, password, sign-in and sessions (real browser)', () => {
  let stack: Stack;
  let tb: TestBrowser;
  let account: TestAccount;
  const email = 'sara@example.test';
  const password = 'a long river of tea';

  beforeAll(async () => {
    stack = await startStack();
    tb = await launchBrowser();
    account = await stack.admin.account({ displayName: 'Sara', developerMode: false });
  });
  afterAll(async () => {
    await tb?.close();
    await stack?.stop();
  });

  const signIn = async (page: Page, who: string, pass: string) => {
    await page.getByLabel('Email').fill(who);
    await page.getByLabel('Password', { exact: true }).fill(pass);
    await page.getByRole('button', { name: 'Sign in' }).click();
  };

  it('takes the invite link the operator made to a set-password page, then signs the person in; the link works once', async () => {
    const invite = await stack.admin.invite(account.id, email);
    expect(invite.url).toMatch(/^http:\/\/127\.0\.0\.1:8080\/app\/invite\/[A-Za-z0-9_-]{43}$/);
    expect(Date.parse(invite.expiresAt) - Date.now()).toBeGreaterThan(6.9 * 24 * 3600_000);
    const context = await tb.browser.newContext();
    const page = await context.newPage();
    await page.goto(onStack(stack.url, invite.url));
    await expect(page.getByRole('heading', { level: 1 }).textContent()).resolves.toBe('Set your password');
    // Too short first: a form error, the link still usable.
    await page.getByLabel('New password', { exact: true }).fill('short');
    await page.getByLabel('New password again').fill('short');
    await page.getByLabel('New password', { exact: true }).evaluate((el) => el.removeAttribute('minlength'));
    await page.getByLabel('New password again').evaluate((el) => el.removeAttribute('minlength'));
    await page.getByRole('button', { name: 'Set password and sign in' }).click();
    await expect(page.getByRole('alert').textContent()).resolves.toContain('too short');
    await page.getByLabel('New password', { exact: true }).fill(password);
    await page.getByLabel('New password again').fill(password);
    await page.getByRole('button', { name: 'Set password and sign in' }).click();
    await page.waitForURL(`${stack.url}/app/`);
    await expect(page.getByText('Signed in as Sara.').count()).resolves.toBe(1);
    const [cookie] = await sessionCookies(context);
    expect(cookie).toMatchObject({ name: 'mm_session', httpOnly: true, sameSite: 'Lax', path: '/' });
    // The same link again: used up.
    const again = await page.goto(onStack(stack.url, invite.url));
    expect(again?.status()).toBe(410);
    await expect(page.getByRole('alert').textContent()).resolves.toContain('already used or has expired');
    await context.close();
  });

  it('uses up every older invite of an account once its password is set, or changed on the profile', async () => {
    const kian = await stack.admin.account({ displayName: 'Kian', developerMode: false });
    const older = await stack.admin.invite(kian.id, 'kian@example.test');
    const newer = await stack.admin.invite(kian.id, 'kian@example.test');
    const context = await tb.browser.newContext();
    const page = await context.newPage();
    const setPassword = async (link: string, pass: string) => {
      await page.goto(onStack(stack.url, link));
      await page.getByLabel('New password', { exact: true }).fill(pass);
      await page.getByLabel('New password again').fill(pass);
      await page.getByRole('button', { name: 'Set password and sign in' }).click();
      await page.waitForURL(`${stack.url}/app/`);
    };
    await setPassword(newer.url, password);
    // The older link would otherwise set a new password, and end Kian's session, for whoever holds it.
    expect((await page.goto(onStack(stack.url, older.url)))?.status()).toBe(410);
    // An invite made after the password was set works (the operator's way back in)...
    const later = await stack.admin.invite(kian.id, 'kian@example.test');
    const unused = await stack.admin.invite(kian.id, 'kian@example.test');
    await setPassword(later.url, 'the second kettle sings');
    expect((await page.goto(onStack(stack.url, unused.url)))?.status()).toBe(410);
    // ...and a change on the profile uses up what is left too.
    const pending = await stack.admin.invite(kian.id, 'kian@example.test');
    await page.goto(`${stack.url}/app/profile`);
    const change = page.getByRole('region', { name: 'Change password' });
    await change.getByLabel('Current password').fill('the second kettle sings');
    await change.getByLabel('New password', { exact: true }).fill('a third pot of tea');
    await change.getByLabel('New password again').fill('a third pot of tea');
    await change.getByRole('button', { name: 'Change password' }).click();
    await expect(page.getByRole('status').count()).resolves.toBe(1);
    expect((await page.goto(onStack(stack.url, pending.url)))?.status()).toBe(410);
    await context.close();
  });

  it('takes an invite made without an email (ARCHITECTURE §7: email optional): its page asks for the email, which becomes the account’s', async () => {
    const other = await stack.admin.account({ displayName: 'Reza', developerMode: false });
    const taken = await stack.admin.account({ displayName: 'Taken', developerMode: false });
    await (await signedInContext(tb.browser, stack, taken.id, 'taken@example.test')).close();
    const invite = await stack.admin.invite(other.id);
    const context = await tb.browser.newContext();
    const page = await context.newPage();
    await page.goto(onStack(stack.url, invite.url));
    const setUp = async (who: string) => {
      await page.getByLabel('Email').fill(who);
      await page.getByLabel('New password', { exact: true }).fill(password);
      await page.getByLabel('New password again').fill(password);
      await page.getByRole('button', { name: 'Set password and sign in' }).click();
    };
    // Another account's email (any case) is refused, the link still usable.
    await setUp('TAKEN@example.test');
    await expect(page.getByRole('alert').textContent()).resolves.toBe(
      'Another account already signs in with this email.',
    );
    await setUp('reza@example.test');
    await page.waitForURL(`${stack.url}/app/`);
    await expect(page.getByText('Signed in as Reza.').count()).resolves.toBe(1);
    const read = await stack.admin.raw().api.get(`/admin/v1/accounts/${other.id}`).set(stack.admin.raw().auth);
    expect(read.body.account.email).toBe('reza@example.test');
    // Signed out, the email and password sign in.
    await context.clearCookies();
    await page.goto(`${stack.url}/app/sign-in`);
    await signIn(page, 'reza@example.test', password);
    await page.waitForURL(`${stack.url}/app/`);
    await context.close();
  });

  it('refuses a wrong password and an unknown email with the same words, and signs in with the right one', async () => {
    const context = await tb.browser.newContext();
    const page = await context.newPage();
    await page.goto(`${stack.url}/app/`);
    await page.waitForURL(/\/app\/sign-in\?next=/);
    await signIn(page, email, 'not the password at all');
    const wrong = await page.getByRole('alert').textContent();
    await signIn(page, 'nobody@example.test', 'not the password at all');
    const unknown = await page.getByRole('alert').textContent();
    expect(wrong).toBe('That email and password do not match an account.');
    expect(unknown).toBe(wrong);
    // The email typed is there again to correct (kept in the tab, never in the address); the password is not.
    await page.waitForFunction(() => document.querySelector<HTMLInputElement>('input[name="email"]')?.value !== '');
    await expect(page.getByLabel('Email').inputValue()).resolves.toBe('nobody@example.test');
    await expect(page.getByLabel('Password', { exact: true }).inputValue()).resolves.toBe('');
    expect(page.url()).not.toContain('nobody');
    expect(await sessionCookies(context)).toEqual([]);
    await signIn(page, email, password);
    await page.waitForURL(`${stack.url}/app/`);
    await expect(page.getByRole('heading', { level: 1 }).textContent()).resolves.toBe('Welcome');
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.waitForURL(/\/app\/sign-in$/);
    expect(await sessionCookies(context)).toEqual([]);
    await context.close();
  });

  it('keeps a signed-out Persian page in Persian after a refused sign-in, on the way to a reset and after it', async () => {
    const context = await tb.browser.newContext();
    const page = await context.newPage();
    await page.goto(`${stack.url}/app/sign-in?lang=fa`);
    await expect(page.locator('html').getAttribute('lang')).resolves.toBe('fa');
    await page.locator('input[name="email"]').fill(email);
    await page.locator('input[name="password"]').fill('not the password at all');
    await page.locator('form button[type="submit"]').click();
    await page.waitForURL(/error=SIGN_IN_FAILED/);
    await expect(page.locator('html').getAttribute('lang')).resolves.toBe('fa');
    await expect(page.getByRole('alert').count()).resolves.toBe(1);
    await page.locator(`a[href^="/app/reset"]`).click();
    await page.waitForURL(/\/app\/reset/);
    await expect(page.locator('html').getAttribute('lang')).resolves.toBe('fa');
    await page.locator('input[name="email"]').fill(email);
    await page.locator('form.card button[type="submit"]').click();
    await page.waitForURL(/sent=/);
    await expect(page.locator('html').getAttribute('lang')).resolves.toBe('fa');
    await context.close();
  });

  it('says a reset link cannot be emailed when the server has no SMTP, alike for any email', async () => {
    const context = await tb.browser.newContext();
    const page = await context.newPage();
    for (const who of [email, 'nobody@example.test']) {
      await page.goto(`${stack.url}/app/reset`);
      await page.getByLabel('Email').fill(who);
      await page.getByRole('button', { name: 'Email me a link' }).click();
      await page.waitForURL(/\/app\/reset\?sent=no-mail(&lang=en)?$/);
      await expect(page.getByRole('alert').textContent()).resolves.toContain('This server cannot send email');
      await expect(page.getByText('a link is on its way').count()).resolves.toBe(0);
    }
    await context.close();
  });

  it('never lets a session reach the token API, nor a token reach the app', async () => {
    const context = await tb.browser.newContext();
    const page = await context.newPage();
    await page.goto(`${stack.url}/app/sign-in`);
    await signIn(page, email, password);
    await page.waitForURL(`${stack.url}/app/`);
    const [cookie] = await sessionCookies(context);
    const whoami = await fetch(`${stack.url}/api/v1/whoami`, { headers: { cookie: `mm_session=${cookie.value}` } });
    expect(whoami.status).toBe(400);
    expect((await whoami.json()).error.code).toBe('TOKEN_REQUIRED');
    const token = await stack.admin.token(account.id, ['recordings:read']);
    const app = await fetch(`${stack.url}/app/`, {
      headers: { authorization: `Bearer ${token.value}` },
      redirect: 'manual',
    });
    expect(app.status).toBe(401);
    expect((await app.json()).error.code).toBe('TOKEN_NOT_ACCEPTED');
    await context.close();
  });

  it("opens the meeting and naming links the API hands out for the owner, after sign-in when signed out; another's is not found", async () => {
    const submitted = await stack.admin
      .raw()
      .api.post(`/admin/v1/accounts/${account.id}/recordings`)
      .set(stack.admin.raw().auth)
      .set('Idempotency-Key', 'app-sign-in-meeting-1')
      .attach('audio', readFileSync(toneWav(2)), { filename: 'a.wav', contentType: 'audio/wav' });
    expect(submitted.status).toBe(202);
    const { url } = submitted.body.recording as { url: string };
    expect(url).toMatch(/\/app\/recordings\/[^/]+$/);
    const context: BrowserContext = await tb.browser.newContext();
    const page = await context.newPage();
    await page.goto(onStack(stack.url, url));
    await page.waitForURL(/\/app\/sign-in\?next=/);
    await signIn(page, email, password);
    await page.waitForURL(onStack(stack.url, url));
    await expect(page.getByRole('heading', { level: 1 }).textContent()).resolves.toBe('Untitled meeting');
    await expect(page.locator('[data-status]').textContent()).resolves.toBe('Queued');
    const naming = await page.goto(`${onStack(stack.url, url)}/naming`);
    expect(naming?.status()).toBe(200);
    await expect(page.getByRole('heading', { level: 1 }).textContent()).resolves.toBe('Name the speakers');
    // Another account's meeting looks like a missing one.
    const other = await stack.admin.account();
    const theirs = await stack.admin
      .raw()
      .api.post(`/admin/v1/accounts/${other.id}/recordings`)
      .set(stack.admin.raw().auth)
      .set('Idempotency-Key', 'app-sign-in-meeting-2')
      .attach('audio', readFileSync(toneWav(2)), { filename: 'a.wav', contentType: 'audio/wav' });
    const res = await page.goto(onStack(stack.url, theirs.body.recording.url));
    expect(res?.status()).toBe(404);
    await expect(page.getByRole('heading', { level: 1 }).textContent()).resolves.toBe('Not found');
    await context.close();
  });
});
