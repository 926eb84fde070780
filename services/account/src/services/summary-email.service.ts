import type { Kysely } from 'kysely';
import type { NatsConnection } from 'nats';
import type { Logger } from 'pino';
import { request, RemoteError } from '@mm/bus';
import { BUS } from '@mm/contract';
import type { Database } from '../db/schema';
import { SettingsRepository } from '../db/settings.repository';
import { SummaryEmailRepository } from '../db/summary-email.repository';
import { attachmentName, emailHtml, emailSubject, emailText, type DigestForEmail } from '../domain/summary-email';
import { canRenderLanguage, renderDigestPdf, type PdfFonts } from '../mail/digest-pdf.renderer';
import { PermanentMailError, type Mailer } from '../mail/smtp.mailer';

// Longer than any real send (PDF plus SMTP), short enough that a crashed sender's email goes soon.
const CLAIM_STALE_SECONDS = 300;

export type SummaryEmailOutcome = 'sent' | 'setting-off' | 'no-smtp' | 'no-email' | 'already-handled' | 'failed';

/** A delivery of the same digest is sending right now; the fact comes back later. */
export class EmailBusyError extends Error {}

export interface SummaryEmailDeps {
  db: Kysely<Database>;
  nc: NatsConnection;
  mailer: Mailer | null;
  fonts: PdfFonts;
  /** The app's base URL: the email links to the meeting's page there. */
  appUrl: string;
  logger: Logger;
}

/**
 * The summary email: each new digest, with the digest as a PDF, to the owner, while
 * summaryEmailEnabled is on and the account has an email. Sent once per meeting (a regenerated
 * digest never comes here; a redelivered one finds the meeting's row).
 */
export class SummaryEmailService {
  private readonly settings: SettingsRepository;
  private readonly repo: SummaryEmailRepository;
  constructor(private readonly deps: SummaryEmailDeps) {
    this.settings = new SettingsRepository(deps.db);
    this.repo = new SummaryEmailRepository(deps.db);
  }

  /**
   * Sends the digest's email if it should go. A failure worth retrying is thrown (the fact is
   * redelivered), unless `lastAttempt`: then the email is given up and recorded as failed.
   */
  async send(
    d: DigestForEmail & { accountId: string },
    opts: { lastAttempt?: boolean } = {},
  ): Promise<SummaryEmailOutcome> {
    const settings = await this.settings.settings(this.deps.db, d.accountId);
    if (!settings.summaryEmailEnabled) return 'setting-off';
    const mailer = this.deps.mailer;
    if (!mailer) return 'no-smtp';
    const state = await this.repo.state(d.recordingId);
    if (state === 'sent' || state === 'failed') return 'already-handled';
    const contact = await this.contact(d.accountId).catch((err: unknown) => {
      if (!opts.lastAttempt) throw err;
      this.deps.logger.error(
        { err, recordingId: d.recordingId },
        "summary email given up: no answer about the owner's address",
      );
      return 'gave-up' as const;
    });
    if (contact === 'gave-up') return 'failed';
    if (!contact?.email) return 'no-email';
    const claim = await this.repo.claim(d.accountId, d.recordingId, CLAIM_STALE_SECONDS);
    // On the last attempt the other delivery is left to finish what it started.
    if (claim === 'sending' && opts.lastAttempt) return 'already-handled';
    if (claim === 'sending')
      throw new EmailBusyError(`the summary email of ${d.recordingId} is being sent by another delivery`);
    if (claim !== 'claimed') return 'already-handled';
    try {
      // Without a font for its script a Persian digest goes without the PDF rather than with an unreadable one.
      const withPdf = canRenderLanguage(this.deps.fonts, d.language);
      const pdf = withPdf ? await renderDigestPdf(d, this.deps.fonts) : null;
      if (!withPdf)
        this.deps.logger.warn(
          { recordingId: d.recordingId },
          'no PDF font can write this digest; sending it without the PDF',
        );
      const body = { url: `${this.deps.appUrl}/recordings/${d.recordingId}`, withPdf };
      const { messageId } = await mailer.send({
        to: contact.email,
        subject: emailSubject(d, settings.uiLocale),
        text: emailText(d, body),
        html: emailHtml(d, body),
        attachments: pdf ? [{ filename: attachmentName(d), content: pdf, contentType: 'application/pdf' }] : [],
      });
      await this.repo.markSent(d.recordingId, messageId);
      return 'sent';
    } catch (err) {
      if (err instanceof PermanentMailError || opts.lastAttempt) {
        await this.repo.markFailed(d.recordingId, (err as Error).message);
        this.deps.logger.error({ err, recordingId: d.recordingId }, 'summary email given up');
        return 'failed';
      }
      await this.repo.release(d.recordingId);
      throw err;
    }
  }

  /** The owner's address from the gateway, which owns identity (never read here); null for an account it does not know. */
  private async contact(accountId: string): Promise<{ email: string | null } | null> {
    try {
      return await request(this.deps.nc, BUS.accountContact, { accountId });
    } catch (err) {
      if (err instanceof RemoteError && err.code === 'NOT_FOUND') return null;
      throw err;
    }
  }
}
