import { sql, type Kysely } from 'kysely';
import type { Database, SummaryEmailTable } from './schema';

export type EmailClaim = 'claimed' | SummaryEmailTable['state'];

/** Which meetings' summary emails were sent: the guard against sending one twice. */
export class SummaryEmailRepository {
  constructor(private readonly db: Kysely<Database>) {}

  async state(recordingId: string): Promise<SummaryEmailTable['state'] | null> {
    const row = await this.db
      .selectFrom('summaryEmail')
      .select('state')
      .where('recordingId', '=', recordingId)
      .executeTakeFirst();
    return row?.state ?? null;
  }

  /**
   * Claims the right to send a meeting's email. One statement, so two replicas (or a redelivery
   * racing the first delivery) cannot both win. A `sending` claim older than `staleSeconds`
   * belongs to a process that died mid-send and may be taken over: the email then goes at least
   * once, twice only if that process died after the server accepted it and before it wrote `sent`.
   * Answers 'claimed', or the state that stops this attempt.
   */
  async claim(accountId: string, recordingId: string, staleSeconds: number): Promise<EmailClaim> {
    const won = await this.db
      .insertInto('summaryEmail')
      .values({ recordingId, accountId, state: 'sending' })
      .onConflict((oc) =>
        oc
          .column('recordingId')
          .doUpdateSet({ claimedAt: sql`now()` })
          .where('summaryEmail.state', '=', 'sending')
          .where('summaryEmail.claimedAt', '<', sql<Date>`now() - make_interval(secs => ${staleSeconds})`),
      )
      .returning('recordingId')
      .executeTakeFirst();
    if (won) return 'claimed';
    return (await this.state(recordingId)) ?? 'sending';
  }

  async markSent(recordingId: string, messageId: string): Promise<void> {
    await this.db
      .updateTable('summaryEmail')
      .set({ state: 'sent', sentAt: new Date(), messageId, error: null })
      .where('recordingId', '=', recordingId)
      .execute();
  }

  async markFailed(recordingId: string, error: string): Promise<void> {
    await this.db
      .updateTable('summaryEmail')
      .set({ state: 'failed', error: error.slice(0, 1000) })
      .where('recordingId', '=', recordingId)
      .execute();
  }

  /** Gives a claim back after a failure worth retrying, so the next delivery may send at once. */
  async release(recordingId: string): Promise<void> {
    await this.db
      .deleteFrom('summaryEmail')
      .where('recordingId', '=', recordingId)
      .where('state', '=', 'sending')
      .execute();
  }
}
