import type { Kysely } from 'kysely';
import type { NatsConnection } from 'nats';
import type { Logger } from 'pino';
import { request, RemoteError } from '@mm/bus';
import { BUS, type MeetingSummary } from '@mm/contract';
import { ApiError, type Principal } from '@mm/http';
import type { Database } from '../db/schema';
import { SummaryShareRepository } from '../db/summary-share.repository';
import { attachmentName, emailHtml, emailSubject, emailText } from '../domain/summary-email';
import { canRenderLanguage, renderDigestPdf, type PdfFonts } from '../mail/digest-pdf.renderer';
import type { Mailer } from '../mail/smtp.mailer';

export type ShareTarget = 'me' | 'series';
export type ShareOutcome = 'sent' | 'no-smtp' | 'no-email' | 'empty-list';

export interface SummaryShareDeps {
  db: Kysely<Database>;
  nc: NatsConnection;
  mailer: Mailer | null;
  fonts: PdfFonts;
  /** The app's base URL: the email links to the meeting's page there. */
  appUrl: string;
  logger: Logger;
}

/** A refusal of another service as this one's own error (NOT_FOUND stays NOT_FOUND: nothing is revealed). */
function asApiError(err: unknown): unknown {
  if (err instanceof RemoteError && (err.code === 'NOT_FOUND' || err.code === 'NOT_READY'))
    return new ApiError(err.code, err.message);
  return err;
}

/**
 * "Email the summary" from the meeting page: a READY meeting's digest, in the digest's language,
 * to the signed-in person's own address, or to the series' email list (the series' owner only).
 * The meeting and the list are the owning services' answers for this caller (another account's
 * meeting or series: NOT_FOUND); every send counts against the account's limit.
 */
export class SummaryShareService {
  private readonly repo: SummaryShareRepository;
  constructor(private readonly deps: SummaryShareDeps) {
    this.repo = new SummaryShareRepository(deps.db);
  }

  async send(
    p: Principal,
    recordingId: string,
    to: ShareTarget,
  ): Promise<{ outcome: ShareOutcome; recipients: number }> {
    const { nc, mailer } = this.deps;
    const meeting = await request(nc, BUS.meetingSummary, { recordingId }, { principal: p }).catch((err) => {
      throw asApiError(err);
    });
    const recipients = to === 'me' ? await this.ownAddress(p.accountId) : await this.seriesList(p, meeting);
    if (recipients === null) return { outcome: 'no-email', recipients: 0 };
    if (recipients.length === 0) return { outcome: 'empty-list', recipients: 0 };
    if (!mailer) return { outcome: 'no-smtp', recipients: 0 };
    const reserved = await this.repo.reserve({
      accountId: p.accountId,
      recordingId: meeting.recordingId,
      target: to,
      recipients: recipients.length,
    });
    if (!('id' in reserved))
      throw new ApiError(
        'RATE_LIMITED',
        'Too many summaries emailed from this account for now; try again later.',
        { retryAfterSeconds: reserved.retryAfterSeconds },
        { 'Retry-After': String(reserved.retryAfterSeconds) },
      );
    let sent = 0;
    try {
      const d = { ...meeting };
      const withPdf = canRenderLanguage(this.deps.fonts, d.language);
      const pdf = withPdf ? await renderDigestPdf(d, this.deps.fonts) : null;
      const body = { url: `${this.deps.appUrl}/recordings/${d.recordingId}`, withPdf };
      const mail = {
        // The digest's language throughout, the subject included: the list reads the meeting's language.
        subject: emailSubject(d, d.language),
        text: emailText(d, body),
        html: emailHtml(d, body),
        attachments: pdf ? [{ filename: attachmentName(d), content: pdf, contentType: 'application/pdf' }] : [],
      };
      // One message per address: nobody on a list sees the others' addresses.
      for (const address of recipients) {
        await mailer.send({ ...mail, to: address });
        sent += 1;
      }
    } catch (err) {
      // Nothing went: the send does not count. Part of a list went: it counts as it was.
      if (sent === 0) await this.repo.release(reserved.id);
      this.deps.logger.error({ err, recordingId, sent, of: recipients.length }, 'summary email from the app failed');
      throw err;
    }
    return { outcome: 'sent', recipients: sent };
  }

  /** The account's own address (the gateway owns identity), or null when it has none. */
  private async ownAddress(accountId: string): Promise<string[] | null> {
    try {
      const c = await request(this.deps.nc, BUS.accountContact, { accountId });
      return c.email ? [c.email] : null;
    } catch (err) {
      if (err instanceof RemoteError && err.code === 'NOT_FOUND') return null;
      throw err;
    }
  }

  /** The series' email list, for the series' owner only: a member, or a meeting in no series, finds nothing. */
  private async seriesList(p: Principal, meeting: MeetingSummary): Promise<string[]> {
    if (!meeting.seriesId) throw new ApiError('NOT_FOUND', 'No series of yours holds that meeting.');
    const { emails } = await request(this.deps.nc, BUS.seriesEmailList, {
      accountId: p.accountId,
      seriesId: meeting.seriesId,
    }).catch((err) => {
      throw asApiError(err);
    });
    return emails;
  }
}
