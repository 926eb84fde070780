import { createTransport, type Transporter } from 'nodemailer';

/** One message to the account owner. */
export interface OutgoingMail {
  to: string;
  subject: string;
  text: string;
  html: string;
  attachments: { filename: string; content: Buffer; contentType: string }[];
}

/** Sends mail; `null` when no SMTP server is configured (summary emails are then off). */
export interface Mailer {
  send(mail: OutgoingMail): Promise<{ messageId: string }>;
  close(): void;
}

/** A refusal that sending again cannot change (the server answered 5xx: bad address, message refused). */
export class PermanentMailError extends Error {}

/**
 * The SMTP mailer (nodemailer). `smtpUrl` is `smtp://[user:pass@]host:port` or `smtps://...`;
 * nodemailer reads TLS and pool options from its query string. Connections are pooled so a burst
 * of digests does not open one connection each.
 */
export function createSmtpMailer(cfg: { smtpUrl: string | null; from: string }): Mailer | null {
  if (!cfg.smtpUrl) return null;
  const url = new URL(cfg.smtpUrl);
  if (!url.searchParams.has('pool')) url.searchParams.set('pool', 'true');
  const transport: Transporter = createTransport(url.toString(), { from: cfg.from });
  return {
    async send(mail) {
      try {
        const info = await transport.sendMail({ ...mail, from: cfg.from });
        return { messageId: String(info.messageId ?? '') };
      } catch (err) {
        const code = (err as { responseCode?: number }).responseCode;
        if (typeof code === 'number' && code >= 500 && code < 600)
          throw new PermanentMailError(`SMTP refused the message (${code}): ${(err as Error).message}`);
        throw err;
      }
    },
    close: () => transport.close(),
  };
}
