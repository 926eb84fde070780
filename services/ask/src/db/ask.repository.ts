import type { Kysely } from 'kysely';
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
  async claim(row: { id: string; accountId: string; tokenId: string | null; target: Target; key: string | null; question: string; minutes: number }): Promise<boolean> {
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
        question: row.question,
        minutes: row.minutes,
        answer: null,
        answeredAt: null,
      })
      .onConflict((oc) => oc.columns(['accountId', 'targetKind', 'targetId', 'idempotencyKey']).where('idempotencyKey', 'is not', null).doNothing())
      .returning('id')
      .executeTakeFirst();
    return inserted !== undefined;
  }

  /** Takes over a claim whose request died (same id, so its charge, if made, is not made twice). */
  async takeOver(id: string, staleBefore: Date): Promise<boolean> {
    const r = await this.db.updateTable('ask').set({ createdAt: new Date() }).where('id', '=', id).where('state', '=', 'answering').where('createdAt', '<', staleBefore).executeTakeFirst();
    return Number(r.numUpdatedRows) === 1;
  }

  async answered(id: string, answer: unknown): Promise<void> {
    await this.db.updateTable('ask').set({ state: 'answered', answer: JSON.stringify(answer), answeredAt: new Date() }).where('id', '=', id).execute();
  }

  /** Forgets a claim whose Ask failed: the same key runs for real next time. */
  async release(id: string): Promise<void> {
    await this.db.deleteFrom('ask').where('id', '=', id).where('state', '=', 'answering').execute();
  }

  async get(id: string): Promise<AskRow | undefined> {
    return this.db.selectFrom('ask').selectAll().where('id', '=', id).executeTakeFirst();
  }

  /** The latest answered questions of an account on a meeting or series, newest first. */
  async history(accountId: string, target: Target, limit: number): Promise<{ question: string; answer: string }[]> {
    const rows = await this.db
      .selectFrom('ask')
      .select(['question', 'answer'])
      .where('accountId', '=', accountId)
      .where('targetKind', '=', target.kind)
      .where('targetId', '=', target.id)
      .where('state', '=', 'answered')
      .orderBy('createdAt', 'desc')
      .limit(limit)
      .execute();
    return rows.map((r) => ({ question: r.question, answer: (r.answer as { answer?: string } | null)?.answer ?? '' }));
  }
}
