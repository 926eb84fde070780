import path from 'node:path';
import { mkdirSync } from 'node:fs';
import type { Page } from 'playwright-core';
import { AxeBuilder } from '@axe-core/playwright';
import { Client } from 'pg';
import { BUS } from '@mm/contract';
import { startSmtpInbox, type SmtpInbox } from '../support/smtp-inbox';
import { startStack, type Stack, type TestAccount } from '../support/stack';
import { launchBrowser, seriousViolations, signedInContext, type TestBrowser } from '../support/browser';

const SHOTS = path.resolve(__dirname, '..', 'output', 'app');

/** Issue 28, slice (d): the owner's account pages change what the API then reads. */
describe('the app: wallet, settings, vocabulary, memory and profile (real browser)', () => {
  let stack: Stack;
  let inbox: SmtpInbox;
  let tb: TestBrowser;
  let account: TestAccount;
  let page: Page;
  let token: string;
  const email = 'darya@example.test';

  beforeAll(async () => {
    inbox = await startSmtpInbox();
    stack = await startStack({ APP_PURCHASES: 'direct', SMTP_URL: inbox.url });
    tb = await launchBrowser();
    account = await stack.admin.account({ displayName: 'Darya', balanceMinutes: 240 });
    token = (await stack.admin.token(account.id, ['account:read'])).value;
    page = await (await signedInContext(tb.browser, stack, account.id, email)).newPage();
  });
  afterAll(async () => {
    await tb?.close();
    await stack?.stop();
    await inbox?.close();
  });

  const api = async (p: string) =>
    (await fetch(`${stack.url}/api/v1${p}`, { headers: { authorization: `Bearer ${token}` } })).json();

  it('shows the wallet: balance, minutes held and the credit that made it', async () => {
    await page.goto(`${stack.url}/app/wallet`);
    await expect(page.locator('dd').first().textContent()).resolves.toBe('240 minutes');
    await expect(
      page
        .getByRole('row', { name: /Minutes granted/ })
        .getByRole('cell')
        .nth(1)
        .textContent(),
    ).resolves.toBe('+240');
  });

  it('buys a pack of minutes: the balance the API reads grows once, however often the form is sent', async () => {
    await page.goto(`${stack.url}/app/wallet`);
    const buy = page.getByRole('region', { name: 'Buy minutes' });
    await buy.getByLabel('300 minutes').check();
    // The form as the page made it, kept to be sent again below.
    const csrf = await buy.locator('input[name="_csrf"]').inputValue();
    const purchaseKey = await buy.locator('input[name="purchaseKey"]').inputValue();
    await buy.getByRole('button', { name: 'Buy' }).click();
    await page.waitForURL(/\/app\/wallet\?bought=300$/);
    await expect(page.getByRole('status').textContent()).resolves.toBe('300 minutes added.');
    await expect(page.locator('dd').first().textContent()).resolves.toBe('540 minutes');
    await expect(
      page
        .getByRole('row', { name: /Minutes bought/ })
        .getByRole('cell')
        .nth(1)
        .textContent(),
    ).resolves.toBe('+300');
    expect((await api('/account')).wallet.balanceMinutes).toBe(540);

    // The same form sent again (a double click, a resend): no second purchase.
    const again = await page.request.post(`${stack.url}/app/wallet/buy`, {
      form: { _csrf: csrf, purchaseKey, minutes: '300' },
      headers: { origin: stack.url },
      maxRedirects: 0,
    });
    expect(again.status()).toBe(303);
    expect((await api('/account')).wallet.balanceMinutes).toBe(540);
    // A size the app does not sell, or no key: nothing bought.
    for (const form of <Record<string, string>[]>[
      { _csrf: csrf, purchaseKey: 'a-fresh-key-of-the-form-0001', minutes: '5000' },
      { _csrf: csrf, minutes: '60' },
    ]) {
      const odd = await page.request.post(`${stack.url}/app/wallet/buy`, {
        form,
        headers: { origin: stack.url },
        maxRedirects: 0,
      });
      expect(odd.headers().location).toBe('/app/wallet');
    }
    expect((await api('/account')).wallet.balanceMinutes).toBe(540);
  });

  it('saves settings the API then reads (naming mode, summary email)', async () => {
    await page.goto(`${stack.url}/app/settings`);
    await page.getByLabel('Speaker naming').selectOption('FORCE_ON');
    await page.getByLabel('Email me each new digest with a PDF').check();
    await expect(page.getByLabel("Delete each meeting's audio once its digest is ready").isChecked()).resolves.toBe(
      false,
    );
    await page.getByLabel("Delete each meeting's audio once its digest is ready").check();
    await page.getByRole('button', { name: 'Save' }).click();
    await expect(page.getByRole('status').textContent()).resolves.toBe('Saved.');
    const { settings } = await api('/account');
    // The app's own setting is the app's: the API's settings are the contract's four.
    expect(settings).toEqual({
      speakerNamingMode: 'FORCE_ON',
      summaryEmailEnabled: true,
      memoryLearningEnabled: true,
      uiLocale: 'en',
    });
    await expect(page.getByLabel("Delete each meeting's audio once its digest is ready").isChecked()).resolves.toBe(
      true,
    );
    // Off again, so the account's later pages keep audio as before.
    await page.getByLabel("Delete each meeting's audio once its digest is ready").uncheck();
    await page.getByRole('button', { name: 'Save' }).click();
    await expect(page.getByLabel("Delete each meeting's audio once its digest is ready").isChecked()).resolves.toBe(
      false,
    );
  });

  it('saves the vocabulary one term a line, and refuses a broken term with a form error', async () => {
    await page.goto(`${stack.url}/app/keyterms`);
    await page.getByLabel('Terms').fill('Kubernetes\n  pocketsphinx  \n\nMeeting Memory');
    await page.getByRole('button', { name: 'Save' }).click();
    await expect(page.getByRole('status').textContent()).resolves.toBe('Saved.');
    expect((await api('/account/keyterms')).keyterms).toEqual(['Kubernetes', 'pocketsphinx', 'Meeting Memory']);
    await page.getByLabel('Terms').fill('fine\n<script>');
    await page.getByRole('button', { name: 'Save' }).click();
    await expect(page.getByRole('alert').count()).resolves.toBe(1);
    // The service's message names the broken term's place, so a list of 100 says which line.
    await expect(page.getByRole('alert').textContent()).resolves.toMatch(/^Not saved: .*\b1\b/);
    expect((await api('/account/keyterms')).keyterms).toEqual(['Kubernetes', 'pocketsphinx', 'Meeting Memory']);
  });

  it('changes the display name, and the password (the old one then fails)', async () => {
    await page.goto(`${stack.url}/app/profile`);
    await page.getByLabel('Display name').fill('Darya K.');
    await page.getByRole('button', { name: 'Save' }).click();
    expect((await api('/whoami')).owner.displayName).toBe('Darya K.');
    await page
      .getByRole('region', { name: 'Change password' })
      .getByLabel('Current password')
      .fill('a long river of tea');
    await page.getByLabel('New password', { exact: true }).fill('the second kettle sings');
    await page.getByLabel('New password again').fill('the second kettle sings');
    await page.getByRole('button', { name: 'Change password' }).click();
    await expect(page.getByRole('status').textContent()).resolves.toContain('Your password was changed');
    const old = await fetch(`${stack.url}/app/sign-in`, {
      method: 'POST',
      redirect: 'manual',
      headers: { origin: stack.url, 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ email, password: 'a long river of tea' }),
    });
    expect(old.headers.get('location')).toContain('error=SIGN_IN_FAILED');
  });

  it("changes the email (the current password needed; another account's or a malformed one refused); signing in then takes the new one", async () => {
    const taken = await stack.admin.account();
    await (await signedInContext(tb.browser, stack, taken.id, 'taken@example.test')).close();
    await page.goto(`${stack.url}/app/profile`);
    const card = page.getByRole('region', { name: 'Email' });
    await expect(card.locator('p').first().textContent()).resolves.toBe(
      `You sign in with ${email}, and summaries are sent there.`,
    );
    const change = async (to: string, current: string) => {
      await card.getByLabel('New email').fill(to);
      await card.getByLabel('Current password').fill(current);
      await card.getByRole('button', { name: 'Change email' }).click();
      await page.waitForLoadState();
    };
    await change('darya.new@example.test', 'not the password at all');
    await expect(page.getByRole('alert').textContent()).resolves.toBe('The current password is not right.');
    await change('TAKEN@example.test', 'the second kettle sings');
    await expect(page.getByRole('alert').textContent()).resolves.toBe(
      'Another account already signs in with this email.',
    );
    // The browser checks type=email itself; a request as a script would send it is refused alike.
    const csrf = await card.locator('input[name="_csrf"]').inputValue();
    const odd = await page.request.post(`${stack.url}/app/email`, {
      form: { _csrf: csrf, email: 'no at sign', current: 'the second kettle sings' },
      headers: { origin: stack.url },
      maxRedirects: 0,
    });
    expect(odd.headers().location).toBe('/app/profile?error=EMAIL_INVALID');
    expect((await stack.request(BUS.accountContact, { accountId: account.id })).email).toBe(email);

    await change(' darya.new@example.test ', 'the second kettle sings');
    await expect(page.getByRole('status').textContent()).resolves.toBe(
      'Your email was changed. Sign in with the new one from now on.',
    );
    await expect(card.locator('p').first().textContent()).resolves.toContain('darya.new@example.test');
    // Where the service writes to (the summaries) follows.
    expect((await stack.request(BUS.accountContact, { accountId: account.id })).email).toBe('darya.new@example.test');
    const signIn = async (who: string) =>
      (
        await fetch(`${stack.url}/app/sign-in`, {
          method: 'POST',
          redirect: 'manual',
          headers: { origin: stack.url, 'content-type': 'application/x-www-form-urlencoded' },
          body: new URLSearchParams({ email: who, password: 'the second kettle sings' }),
        })
      ).headers.get('location');
    expect(await signIn(email)).toContain('error=SIGN_IN_FAILED');
    expect(await signIn('darya.new@example.test')).not.toContain('error=');
    // The old address is told, so a change made by someone else does not go unseen.
    // (The first message there is the invite that signed the test in.)
    const notice = (await inbox.waitFor(email, 2))[1];
    expect(notice!.subject).toBe('Your Meeting Memory email was changed');
    expect(notice!.text).toContain('darya.new@example.test');
    expect(inbox.to('darya.new@example.test')).toHaveLength(0);
  });

  it('names each memory note to a screen reader: no two notes alike, each Delete says which note', async () => {
    const db = new Client({ connectionString: stack.env.DATABASE_URL });
    await db.connect();
    try {
      for (const [i, text] of ['Works on the release', 'Prefers short meetings', 'Leads the Tuesday call'].entries())
        await db.query(
          `insert into account.memory_note (id, account_id, category, text, text_key, meeting_count)
           values ($1, $2, 'ABOUT_YOU', $3, lower($3), 1)`,
          [`mem_a11y_${i}`, account.id, text],
        );
    } finally {
      await db.end();
    }
    await page.goto(`${stack.url}/app/memory?lang=en`);
    // Every impact, not only serious: ten notes named alike was a moderate one (landmark-unique).
    const result = await new AxeBuilder({ page }).setLegacyMode(true).analyze();
    expect(result.violations.map((v) => v.id)).toEqual([]);
    const deletes = page.getByRole('button', { name: 'Delete', exact: true });
    expect(await deletes.count()).toBeGreaterThanOrEqual(3);
    const described = await deletes.evaluateAll((buttons) =>
      buttons.map((b) => document.getElementById(b.getAttribute('aria-describedby') ?? '')?.textContent ?? ''),
    );
    expect(described).toEqual(expect.arrayContaining([expect.stringContaining('Prefers short meetings')]));
    expect(new Set(described).size).toBe(described.length);
  });

  it('has no serious or critical accessibility violation on the account pages, in English and Persian', async () => {
    mkdirSync(SHOTS, { recursive: true });
    const found: string[] = [];
    for (const lang of ['en', 'fa']) {
      if (lang === 'fa') await page.getByRole('button', { name: 'فارسی' }).click();
      for (const name of ['wallet', 'settings', 'keyterms', 'memory', 'profile']) {
        await page.goto(`${stack.url}/app/${name}`);
        for (const v of await seriousViolations(page)) found.push(`${name} (${lang}): ${v}`);
        for (const width of [375, 1280]) {
          await page.setViewportSize({ width, height: 900 });
          await page.screenshot({ path: path.join(SHOTS, `${name}-${lang}-${width}.png`), fullPage: true });
        }
      }
    }
    await expect(page.locator('html').getAttribute('dir')).resolves.toBe('rtl');
    expect(found).toEqual([]);
  });
});
