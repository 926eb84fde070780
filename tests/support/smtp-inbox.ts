import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';
import { simpleParser, type ParsedMail } from 'mailparser';

/** A real SMTP server on a free port that keeps every message it accepts, parsed. */
export interface SmtpInbox {
  /** `smtp://127.0.0.1:<port>`, for SMTP_URL. */
  url: string;
  messages: ParsedMail[];
  /** Messages to this address. */
  to(address: string): ParsedMail[];
  /** Waits until `count` messages to the address arrived (then returns them), or fails after `timeoutMs`. */
  waitFor(address: string, count?: number, timeoutMs?: number): Promise<ParsedMail[]>;
  /** Holds every message being sent (its DATA is not answered) until the returned function is called. */
  hold(): () => void;
  close(): Promise<void>;
}

export async function startSmtpInbox(opts: { refuse?: (address: string) => boolean } = {}): Promise<SmtpInbox> {
  const messages: ParsedMail[] = [];
  let held: Promise<void> = Promise.resolve();
  const server = new SMTPServer({
    // Plain SMTP on localhost: no TLS to negotiate and no login, like a development relay.
    disabledCommands: ['STARTTLS', 'AUTH'],
    authOptional: true,
    logger: false,
    size: 20 * 1024 * 1024,
    onRcptTo(address, _session, callback) {
      if (!opts.refuse?.(address.address)) return callback();
      callback(Object.assign(new Error('No such mailbox'), { responseCode: 550 }));
    },
    onData(stream, _session, callback) {
      held
        .then(() => simpleParser(stream))
        .then(
          (mail) => {
            messages.push(mail);
            callback();
          },
          (err: Error) => callback(err),
        );
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const port = (server.server.address() as AddressInfo).port;
  const to = (address: string) =>
    messages.filter((m) => [m.to].flat().some((t) => t?.value.some((v) => v.address === address)));
  return {
    url: `smtp://127.0.0.1:${port}`,
    messages,
    to,
    async waitFor(address, count = 1, timeoutMs = 30_000) {
      const until = Date.now() + timeoutMs;
      while (to(address).length < count) {
        if (Date.now() > until)
          throw new Error(`${count} message(s) to ${address} expected; ${to(address).length} arrived`);
        await new Promise((r) => setTimeout(r, 200));
      }
      return to(address);
    },
    hold() {
      let release = () => undefined as void;
      held = new Promise<void>((resolve) => {
        release = resolve;
      });
      return release;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
