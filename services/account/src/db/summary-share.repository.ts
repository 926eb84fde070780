import { sql, type Kysely } from 'kysely';
import type { Database, SummaryShareTable } from './schema';
import { admitShare, type ShareAdmission } from '../domain/summary-share';

/** The summaries people emailed from the app: the per-account limit's record. */
export class SummaryShareRepository {
  constructor(private readonly db: Kysely<Database>) {}

  /**
   * Counts a send before it goes, if the limit lets it: the account's sends are read and the row
   * written under one lock per account, so two clicks at once cannot both take the last place.
   * Answers the row's id (to `release` a send that failed) or the refusal.
   */
  async reserve(
    row: Pick<SummaryShareTable, 'accountId' | 'recordingId' | 'target' | 'recipients'>,
  ): Promise<{ id: string } | Extract<ShareAdmission, { ok: false }>> {
    return this.db.transaction().execute(async (trx) => {
      await sql`select pg_advisory_xact_lock(hashtextextended(${`summary-share:${row.accountId}`}, 0))`.execute(trx);
      const { now } = (await sql<{ now: Date }>`select now() as now`.execute(trx)).rows[0];
      const recent = await trx
        .selectFrom('summaryShare')
        .select(['sentAt', 'recipients'])
        .where('accountId', '=', row.accountId)
        .where('sentAt', '>', sql<Date>`now() - interval '1 day'`)
        .execute();
      const admission = admitShare(recent, row.recipients, now);
      if (!admission.ok) return admission;
      const { id } = await trx.insertInto('summaryShare').values(row).returning('id').executeTakeFirstOrThrow();
      return { id };
    });
  }

  /** Takes back a send that did not go (the SMTP server refused it): it does not count. */
  async release(id: string): Promise<void> {
    await this.db.deleteFrom('summaryShare').where('id', '=', id).execute();
  }
}
