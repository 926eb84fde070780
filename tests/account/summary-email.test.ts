import { readFileSync } from 'node:fs';
import type { ParsedMail } from 'mailparser';
import { startStack, ADMIN_KEY, type Stack } from '../support/stack';
import { speakMeeting, STANDUP_SCRIPT } from '../support/speak-meeting';
import { waitForStatus } from '../support/wait';
import { startSmtpInbox, type SmtpInbox } from '../support/smtp-inbox';
import { normalizeSpace, pdfText } from '../support/pdf-text';
import { expectContract } from '../support/contract-response';

/**
 * Issue 5 end to end: a real meeting through the offline engines, a real SMTP server. The owner
 * with summaryEmailEnabled gets one email with the digest as a PDF; a second owner with the
 * setting off gets none; memory learns from both; a regenerated digest is not emailed again.
 */
let stack: Stack;
let inbox: SmtpInbox;
const SCOPES = ['recordings:write', 'recordings:read', 'account:read', 'account:write'];
const bearer = (v: string) => ({ Authorization: `Bearer ${v}` });

interface Owner {
  email: string;
  token: string;
  recordingId: string;
}
let emailOn: Owner;
let emailOff: Owner;

async function ownerWithMeeting(email: string, summaryEmailEnabled: boolean): Promise<Owner> {
  const account = await stack.admin.account({ email, developerMode: true, balanceMinutes: 100 });
  const token = await stack.admin.token(account.id, SCOPES);
  const settings = await stack.api
    .patch('/api/v1/account/settings')
    .set(bearer(token.value))
    .send({ summaryEmailEnabled });
  expect(expectContract('updateAccountSettings', settings).settings.summaryEmailEnabled).toBe(summaryEmailEnabled);
  const spoken = await speakMeeting(STANDUP_SCRIPT);
  const res = await stack.api
    .post('/api/v1/recordings')
    .set(bearer(token.value))
    .field('naming', 'skip')
    .attach('audio', readFileSync(spoken.path), { filename: 'standup.wav', contentType: 'audio/wav' });
  expect(res.status).toBe(202);
  return { email, token: token.value, recordingId: res.body.recording.id };
}

beforeAll(async () => {
  inbox = await startSmtpInbox();
  stack = await startStack({ SMTP_URL: inbox.url, NAMING_AUTO_WAIT_SECONDS: '1' }, { pipeline: true });
  const stamp = Date.now();
  [emailOn, emailOff] = await Promise.all([
    ownerWithMeeting(`on-${stamp}@example.test`, true),
    ownerWithMeeting(`off-${stamp}@example.test`, false),
  ]);
  for (const o of [emailOn, emailOff]) {
    const status = await waitForStatus(stack, o.token, o.recordingId, (s) => s === 'READY' || s === 'FAILED', 180_000);
    expect(status.status).toBe('READY');
  }
}, 240_000);

afterAll(async () => {
  await stack?.stop();
  await inbox?.close();
});

const bundleOf = async (o: Owner) =>
  expectContract(
    'getRecordingBundle',
    await stack.api.get(`/api/v1/recordings/${o.recordingId}/bundle`).set(bearer(o.token)),
  );
const pdfOf = (mail: ParsedMail) => mail.attachments.filter((a) => a.contentType === 'application/pdf');

describe('the summary email of a new digest', () => {
  it('sends the owner one email with the summary in the body and the digest as a PDF whose text holds the summary', async () => {
    const [mail] = await inbox.waitFor(emailOn.email, 1, 60_000);
    const { recording, digest } = await bundleOf(emailOn);
    const summary = normalizeSpace(digest.sections.find((s: { kind: string }) => s.kind === 'summary').text);
    expect(summary.length).toBeGreaterThan(20);

    expect(mail.from?.text).toContain('no-reply@localhost');
    expect(mail.subject).toContain(recording.displayTitle);
    expect(normalizeSpace(mail.text ?? '')).toContain(summary);
    expect(mail.html).toEqual(expect.stringContaining(`/recordings/${emailOn.recordingId}`));

    const pdfs = pdfOf(mail);
    expect(pdfs).toHaveLength(1);
    expect(pdfs[0].filename).toMatch(/\.pdf$/);
    expect(pdfs[0].content.subarray(0, 5).toString('latin1')).toBe('%PDF-');
    const text = normalizeSpace(await pdfText(pdfs[0].content));
    expect(text).toContain(summary);
    expect(text).toContain(normalizeSpace(recording.displayTitle));
  });

  it('sends nothing to an owner whose summaryEmailEnabled is off', async () => {
    await inbox.waitFor(emailOn.email);
    expect(inbox.to(emailOff.email)).toEqual([]);
  });

  it('does not email a regenerated digest again', async () => {
    await inbox.waitFor(emailOn.email);
    const regen = await stack.api
      .post(`/admin/v1/recordings/${emailOn.recordingId}/regenerate`)
      .set({ Authorization: `Bearer ${ADMIN_KEY}` });
    expect(regen.body).toMatchObject({ status: 'GENERATING' });
    await waitForStatus(stack, emailOn.token, emailOn.recordingId, (s) => s === 'READY');
    // The first email came within seconds of READY; a second one would have too.
    await new Promise((r) => setTimeout(r, 4000));
    expect(inbox.to(emailOn.email)).toHaveLength(1);
  }, 120_000);
});

describe('memory learning from a new digest', () => {
  it('adds notes learned from the meeting, each from at least one meeting', async () => {
    for (const o of [emailOn, emailOff]) {
      let items: { category: string; text: string; meetingCount: number }[] = [];
      // The digest fact is handled just after READY; give it a moment.
      for (let i = 0; i < 50 && items.length === 0; i++) {
        const body = expectContract('listMemory', await stack.api.get('/api/v1/account/memory').set(bearer(o.token)));
        expect(body.memoryEnabled).toBe(true);
        items = body.items;
        if (!items.length) await new Promise((r) => setTimeout(r, 200));
      }
      expect(items.length).toBeGreaterThan(0);
      for (const item of items) expect(item.meetingCount).toBeGreaterThanOrEqual(1);
    }
  });
});
