import { readFileSync } from 'node:fs';
import type { BrowserContext, Page } from 'playwright-core';
import { startStack, type Stack, type TestToken } from '../support/stack';
import { launchBrowser, seriousViolations, signedInContext, type TestBrowser } from '../support/browser';
import { startSmtpInbox, type SmtpInbox } from '../support/smtp-inbox';
import { speakMeeting, STANDUP_SCRIPT } from '../support/speak-meeting';
import { waitForStatus } from '../support/wait';
import type { Running } from '@mm/http';
import { loadConfig as accountConfig } from '../../services/account/src/config';
import { startAccount } from '../../services/account/src/main';

/**
 * Issue 29: "email the summary" from the meeting page, through a real SMTP server: to oneself and
 * to the series' email list (its owner only), in the digest's language, limited per account; a
 * member cannot send to the list, and another account's meeting is 404.
 */
const OWNER = 'parisa@example.test';
const MEMBER = 'kian@example.test';
const STRANGER = 'omid@example.test';
const LIST = ['team-a@example.test', 'team-b@example.test'];

describe('the app: email the summary (real browser, real SMTP server)', () => {
  let inbox: SmtpInbox;
  let stack: Stack;
  let tb: TestBrowser;
  let token: TestToken;
  let owner: BrowserContext;
  let page: Page;
  let id: string;
  let seriesId: string;
  let summary: string;
  /** The account service started again without SMTP_URL (the last test). */
  let noMailer: Running | undefined;
  const bearer = () => ({ Authorization: `Bearer ${token.value}` });
  const meetingPath = () => `${stack.url}/app/recordings/${id}`;
  /** The summaries that reached an address (the invite of each signed-in person arrives there too). */
  const notes = (address: string) => inbox.to(address).filter((m) => m.subject?.startsWith('Meeting notes'));
  const waitForNotes = async (address: string, count: number) => {
    const until = Date.now() + 30_000;
    while (notes(address).length < count && Date.now() < until) await new Promise((r) => setTimeout(r, 200));
    expect(notes(address).length).toBe(count);
    return notes(address);
  };
  /** Sends the form with `to` picked; the page the browser lands on. */
  const send = async (p: Page, to: string) => {
    await p.getByLabel('Send to').selectOption(to);
    await p.getByRole('button', { name: 'Send the summary' }).click();
    await p.waitForLoadState();
  };

  beforeAll(async () => {
    inbox = await startSmtpInbox();
    stack = await startStack({ SMTP_URL: inbox.url }, { pipeline: true });
    tb = await launchBrowser();
    const account = await stack.admin.account({ displayName: 'Parisa', balanceMinutes: 60 });
    token = await stack.admin.token(account.id, ['recordings:read', 'recordings:write', 'series:write']);
    const series = await stack.api.post('/api/v1/series').set(bearer()).send({ name: 'Weekly standup' });
    expect(series.status).toBe(201);
    seriesId = series.body.series.id;
    const spoken = await speakMeeting(STANDUP_SCRIPT);
    const sent = await stack.api
      .post('/api/v1/recordings')
      .set(bearer())
      .field('naming', 'skip')
      .field('seriesId', seriesId)
      .attach('audio', readFileSync(spoken.path), { filename: 'm.wav', contentType: 'audio/wav' });
    expect(sent.status).toBe(202);
    id = sent.body.recording.id;
    owner = await signedInContext(tb.browser, stack, account.id, OWNER);
    page = await owner.newPage();
    const done = await waitForStatus(stack, token.value, id, (s) => s === 'READY' || s === 'FAILED', 180_000);
    expect(done.status).toBe('READY');
    const bundle = await stack.api.get(`/api/v1/recordings/${id}/bundle`).set(bearer());
    summary = bundle.body.digest.sections.find((s: { kind: string }) => s.kind === 'summary').text;
    expect(summary.length).toBeGreaterThan(10);
  }, 300_000);
  afterAll(async () => {
    await noMailer?.close();
    await tb?.close();
    await stack?.stop();
    await inbox?.close();
  });

  it("emails the summary to the owner's own address, with the digest's summary and a link to the meeting", async () => {
    await page.goto(meetingPath());
    expect(await seriousViolations(page)).toEqual([]);
    await send(page, 'me');
    expect(await page.getByText('The summary was emailed (1 addresses).').count()).toBe(1);
    const [mail] = await waitForNotes(OWNER, 1);
    // The summary's words (the plain-text body writes each section's text on its own line).
    expect(mail.text?.replace(/\s+/g, ' ')).toContain(summary.replace(/\s+/g, ' ').trim());
    expect(mail.text).toContain(`/app/recordings/${id}`);
    expect(mail.html).toContain(`/app/recordings/${id}`);
  });

  it("emails the series' list for the series' owner, one message per address", async () => {
    await page.goto(`${stack.url}/app/series/${seriesId}`);
    await page.getByRole('textbox', { name: /Email list/ }).fill(LIST.join('\n'));
    await page.getByRole('button', { name: 'Save email list' }).click();
    await page.waitForLoadState();
    await page.goto(meetingPath());
    await send(page, 'series');
    expect(await page.getByText('The summary was emailed (2 addresses).').count()).toBe(1);
    for (const address of LIST) {
      const [mail] = await waitForNotes(address, 1);
      expect([mail.to].flat().flatMap((t) => t?.value.map((v) => v.address))).toEqual([address]);
      expect(mail.text).toContain(`/app/recordings/${id}`);
    }
  });

  it('lets a member email only themself: the series list is not offered, and a forged request is 404', async () => {
    const who = await stack.admin.account({ displayName: 'Kian' });
    expect((await stack.admin.addSeriesMember(seriesId, who.id)).status).toBe(200);
    const member = await signedInContext(tb.browser, stack, who.id, MEMBER);
    const p = await member.newPage();
    await p.goto(meetingPath());
    const options = await p.getByLabel('Send to').locator('option').allTextContents();
    expect(options).toEqual(['My email address']);
    // The same form with the list's value put back by hand: the account service refuses it as missing.
    const listed = inbox.messages.length;
    await p.getByLabel('Send to').evaluate((el) => {
      const o = document.createElement('option');
      o.value = 'series';
      o.textContent = 'forged';
      el.appendChild(o);
    });
    const refused = p.waitForResponse((r) => r.url().endsWith('/email-summary'));
    await send(p, 'series');
    expect((await refused).status()).toBe(404);
    expect(await p.getByRole('heading', { name: 'Not found' }).count()).toBe(1);
    await p.goto(meetingPath());
    await send(p, 'me');
    expect(await p.getByText('The summary was emailed (1 addresses).').count()).toBe(1);
    await waitForNotes(MEMBER, 1);
    expect(inbox.messages.length).toBe(listed + 1);
    await member.close();
  });

  it("answers 404 for another account's meeting and sends nothing", async () => {
    const who = await stack.admin.account({ displayName: 'Omid' });
    const stranger = await signedInContext(tb.browser, stack, who.id, STRANGER);
    const p = await stranger.newPage();
    const page404 = await p.goto(meetingPath());
    expect(page404?.status()).toBe(404);
    // A form of the stranger's own (with its CSRF field), pointed at the other account's meeting.
    await p.goto(`${stack.url}/app/`);
    const before = inbox.messages.length;
    const status = await p.evaluate(async (action) => {
      const csrf = document.querySelector<HTMLInputElement>('form[method="post"] input[type="hidden"]');
      const body = new URLSearchParams({ to: 'me', ...(csrf ? { [csrf.name]: csrf.value } : {}) });
      return (await fetch(action, { method: 'POST', body })).status;
    }, `/app/recordings/${id}/email-summary`);
    expect(status).toBe(404);
    await new Promise((r) => setTimeout(r, 500));
    expect(inbox.messages.length).toBe(before);
    expect(notes(STRANGER)).toEqual([]);
    await stranger.close();
  });

  it('limits sends per account: after ten in an hour the page says to try later and nothing more goes', async () => {
    // Two sends of this account so far (to itself, to the list): eight more fit in the hour.
    for (let i = 0; i < 8; i++) {
      await page.goto(meetingPath());
      await send(page, 'me');
      expect(await page.getByText('The summary was emailed (1 addresses).').count()).toBe(1);
    }
    await waitForNotes(OWNER, 9);
    await page.goto(meetingPath());
    await send(page, 'me');
    expect(await page.getByText(/Too many summaries were emailed/).count()).toBe(1);
    await new Promise((r) => setTimeout(r, 500));
    expect(notes(OWNER).length).toBe(9);
  });

  it('says email is not set up when the account service has no mailer (SMTP_URL unset), and sends nothing', async () => {
    // The operator runs the account service without SMTP_URL: the same service started again on
    // its port (as a redeploy would), the gateway and the app unchanged.
    const { port } = stack.services.account;
    await stack.services.account.close();
    noMailer = await startAccount({ ...accountConfig({ ...stack.env, SMTP_URL: '' }), port });
    const before = inbox.messages.length;
    await page.goto(meetingPath());
    await send(page, 'me');
    // The account service's outcome `no-smtp`, said by the page (services/web i18n errorNoSmtp);
    // it is answered before the send limit, which this account reached in the test above.
    expect(
      await page
        .getByText('Email is not set up on this service, so nothing was sent. The operator can set SMTP_URL.')
        .count(),
    ).toBe(1);
    expect(await page.getByText(/The summary was emailed|Too many summaries/).count()).toBe(0);
    expect(await seriousViolations(page)).toEqual([]);
    await new Promise((r) => setTimeout(r, 500));
    expect(inbox.messages.length).toBe(before);
  });
});
