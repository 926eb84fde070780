import { createServer, type AddressInfo } from 'node:net';
import { createSmtpMailer, PermanentMailError } from '../../services/account/src/mail/smtp.mailer';
import { startSmtpInbox, type SmtpInbox } from '../support/smtp-inbox';

let inbox: SmtpInbox;
beforeAll(async () => {
  inbox = await startSmtpInbox({ refuse: (address) => address.startsWith('gone@') });
});
afterAll(async () => {
  await inbox.close();
});

const mail = (to: string) => ({
  to,
  subject: 'Meeting notes: Standup',
  text: 'We ship on Friday.\n',
  html: '<p>We ship on Friday.</p>',
  attachments: [{ filename: 'a.pdf', content: Buffer.from('%PDF-1.3\n'), contentType: 'application/pdf' }],
});

describe('the SMTP mailer', () => {
  it('is off without SMTP_URL', () => {
    expect(createSmtpMailer({ smtpUrl: null, from: 'x@y' })).toBeNull();
  });

  it('delivers from SMTP_FROM with the text, HTML and attachment', async () => {
    const mailer = createSmtpMailer({ smtpUrl: inbox.url, from: 'Meeting Memory <no-reply@localhost>' })!;
    try {
      const { messageId } = await mailer.send(mail('sara@example.test'));
      expect(messageId).toMatch(/^<.+>$/);
      const [got] = await inbox.waitFor('sara@example.test');
      expect(got.from?.text).toBe('"Meeting Memory" <no-reply@localhost>');
      expect(got.subject).toBe('Meeting notes: Standup');
      expect(got.text).toBe('We ship on Friday.\n');
      expect(got.html).toContain('<p>We ship on Friday.</p>');
      expect(got.attachments.map((a) => [a.filename, a.contentType, a.content.toString('latin1')])).toEqual([
        ['a.pdf', 'application/pdf', '%PDF-1.3\n'],
      ]);
    } finally {
      mailer.close();
    }
  });

  it('calls a 5xx refusal permanent and a server that is away not', async () => {
    const mailer = createSmtpMailer({ smtpUrl: inbox.url, from: 'no-reply@localhost' })!;
    await expect(mailer.send(mail('gone@example.test'))).rejects.toBeInstanceOf(PermanentMailError);
    mailer.close();
    // A port nobody listens on: taken, then freed.
    const port = await new Promise<number>((resolve) => {
      const s = createServer().listen(0, '127.0.0.1', () => {
        const p = (s.address() as AddressInfo).port;
        s.close(() => resolve(p));
      });
    });
    const away = createSmtpMailer({ smtpUrl: `smtp://127.0.0.1:${port}`, from: 'no-reply@localhost' })!;
    const err = await away.send(mail('sara@example.test')).catch((e: unknown) => e);
    away.close();
    // Errors from Node's own sockets come from another realm than jest's Error: check the shape.
    expect(err).toMatchObject({ code: 'ESOCKET', message: expect.stringContaining('ECONNREFUSED') });
    expect(err).not.toBeInstanceOf(PermanentMailError);
  });
});
