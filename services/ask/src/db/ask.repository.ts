import { sql, type Kysely } from 'kysely';
import type { AskRow, Database, TargetKind } from './schema';

export interface Target {
  kind: TargetKind;
  id: string;
}

/** The asks table: claims, answers, replays and the history a next question reads. */
export class AskRepository {
  constructor(private readonly db: Kysely<Database>) {}

  async byKey(accountId: string, target: Target, key: string): Promise<AskRow | undefined> {
    return this.db
      .selectFrom('ask')
      .selectAll()
      .where('accountId', '=', accountId)
      .where('targetKind', '=', target.kind)
      .where('targetId', '=', target.id)
      .where('idempotencyKey', '=', key)
      .executeTakeFirst();
  }

  /** Claims an Ask before its work; false when another request holds the same key. */
  async claim(row: {
    id: string;
    attempt: string;
    accountId: string;
    tokenId: string | null;
    target: Target;
    key: string | null;
    question: string;
    minutes: number;
  }): Promise<boolean> {
    const inserted = await this.db
      .insertInto('ask')
      .values({
        id: row.id,
        accountId: row.accountId,
        tokenId: row.tokenId,
        targetKind: row.target.kind,
        targetId: row.target.id,
        idempotencyKey: row.key,
        state: 'answering',
        attempt: row.attempt,
        question: row.question,
        minutes: row.minutes,
        answer: null,
        answeredAt: null,
      })
      .onConflict((oc) =>
        oc
          .columns(['accountId', 'targetKind', 'targetId', 'idempotencyKey'])
          .where('idempotencyKey', 'is not', null)
          .doNothing(),
      )
      .returning('id')
      .executeTakeFirst();
    return inserted !== undefined;
  }

  /**
   * Takes over a claim older than `staleMs` (its request died or is slow) under a new attempt; the
   * Ask id stays, so a charge already made under it is not made twice.
   */
  async takeOver(id: string, attempt: string, staleMs: number): Promise<boolean> {
    const r = await this.db
      .updateTable('ask')
      .set({ createdAt: sql`now()`, attempt })
      .where('id', '=', id)
      .where('state', '=', 'answering')
      .where('createdAt', '<', sql<Date>`now() - make_interval(secs => ${staleMs / 1000})`)
      .executeTakeFirst();
    return Number(r.numUpdatedRows) === 1;
  }

  /** Saves the answer, unless another attempt took the claim over (it answers under the same id). */
  async answered(id: string, attempt: string, answer: unknown): Promise<boolean> {
    const r = await this.db
      .updateTable('ask')
      .set({ state: 'answered', answer: JSON.stringify(answer), answeredAt: new Date() })
      .where('id', '=', id)
      .where('attempt', '=', attempt)
      .executeTakeFirst();
    return Number(r.numUpdatedRows) === 1;
  }

  /** Forgets a claim whose Ask failed (the same key runs for real next time), unless it was taken over. */
  async release(id: string, attempt: string): Promise<void> {
    await this.db
      .deleteFrom('ask')
      .where('id', '=', id)
      .where('attempt', '=', attempt)
      .where('state', '=', 'answering')
      .execute();
  }

  async get(id: string): Promise<AskRow | undefined> {
    return this.db.selectFrom('ask').selectAll().where('id', '=', id).executeTakeFirst();
  }

  /** The account's answered Asks on a meeting or series, newest first, as the app shows them. */
  async answeredOf(
    accountId: string,
    target: Target,
    limit: number,
  ): Promise<{ id: string; question: string; answer: unknown; createdAt: Date }[]> {
    return this.db
      .selectFrom('ask')
      .select(['id', 'question', 'answer', 'createdAt'])
      .where('accountId', '=', accountId)
      .where('targetKind', '=', target.kind)
      .where('targetId', '=', target.id)
      .where('state', '=', 'answered')
      .orderBy('createdAt', 'desc')
      .limit(limit)
      .execute();
  }

  /** The latest answered questions of an account on a meeting or series, newest first. */
  async history(accountId: string, target: Target, limit: number): Promise<{ question: string; answer: string }[]> {
    const rows = await this.answeredOf(accountId, target, limit);
    return rows.map((r) => ({ question: r.question, answer: (r.answer as { answer?: string } | null)?.answer ?? '' }));
  }

  /** A meeting purged for good: its questions and answers go (idempotent); answers how many. */
  async forgetMeeting(accountId: string, recordingId: string): Promise<number> {
    const r = await this.db
      .deleteFrom('ask')
      .where('accountId', '=', accountId)
      .where('targetKind', '=', 'recording')
      .where('targetId', '=', recordingId)
      .executeTakeFirst();
    return Number(r.numDeletedRows);
  }
}
