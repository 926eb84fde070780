import { sql, type Kysely, type Selectable, type Transaction } from 'kysely';
import { newId } from '@mm/http';
import { keyArray, preparedByKeys } from '@mm/db';
import type { LearnCandidate } from '../domain/memory-note';
import type { Database, MemoryCategory, MemoryNoteTable } from './schema';

type Db = Kysely<Database> | Transaction<Database>;

/** A memory note as the contract shows it. */
export interface MemoryItem {
  id: string;
  category: MemoryCategory;
  text: string;
  meetingCount: number;
  pinned: boolean;
}

export function toMemoryItem(
  row: Pick<Selectable<MemoryNoteTable>, 'id' | 'category' | 'text' | 'meetingCount' | 'pinned'>,
): MemoryItem {
  return { id: row.id, category: row.category, text: row.text, meetingCount: row.meetingCount, pinned: row.pinned };
}

const UNIQUE_VIOLATION = '23505';
const isDuplicateKey = (err: unknown) => (err as { code?: string }).code === UNIQUE_VIOLATION;

/**
 * Accounts' notes in the order the list shows them (GET /account/memory, a digest's notes): the
 * lists of one turn share one statement, each account answered by its own rows in this order.
 */
const LIST = preparedByKeys(
  (db: Kysely<Database>, accountIds: string[]) =>
    db
      .selectFrom('memoryNote')
      .selectAll()
      .where(sql<boolean>`account_id = any(${keyArray(accountIds)})`)
      .orderBy('category')
      .orderBy('meetingCount', 'desc')
      .orderBy('createdAt')
      .orderBy('id'),
  (row) => [row.accountId],
);

/** Memory notes and the meetings they were learned from. */
export class MemoryRepository {
  constructor(readonly db: Kysely<Database>) {}

  /** The account's notes: by category (ABOUT_YOU, PEOPLE, TERMS sort alike), best known first. */
  async list(db: Db, accountId: string): Promise<MemoryItem[]> {
    return (await LIST.all(db, accountId)).map(toMemoryItem);
  }

  async find(db: Db, accountId: string, id: string) {
    return db
      .selectFrom('memoryNote')
      .selectAll()
      .where('accountId', '=', accountId)
      .where('id', '=', id)
      .executeTakeFirst();
  }

  /** Another note of the category with this key, if any. */
  async findByKey(db: Db, accountId: string, category: MemoryCategory, key: string, exceptId: string) {
    return db
      .selectFrom('memoryNote')
      .select('id')
      .where('accountId', '=', accountId)
      .where('category', '=', category)
      .where('textKey', '=', key)
      .where('id', '!=', exceptId)
      .executeTakeFirst();
  }

  /** Saves an owner's edit and pins the note; 'duplicate' when another note took the key meanwhile. */
  async saveEdit(
    db: Db,
    accountId: string,
    id: string,
    text: string,
    key: string,
  ): Promise<MemoryItem | 'duplicate' | null> {
    try {
      const row = await db
        .updateTable('memoryNote')
        .set({ text, textKey: key, pinned: true, updatedAt: new Date() })
        .where('accountId', '=', accountId)
        .where('id', '=', id)
        .returningAll()
        .executeTakeFirst();
      return row ? toMemoryItem(row) : null;
    } catch (err) {
      if (isDuplicateKey(err)) return 'duplicate';
      throw err;
    }
  }

  async delete(db: Db, accountId: string, id: string): Promise<boolean> {
    const r = await db
      .deleteFrom('memoryNote')
      .where('accountId', '=', accountId)
      .where('id', '=', id)
      .executeTakeFirst();
    return Number(r.numDeletedRows) > 0;
  }

  /** Records that a meeting was handled; false when it already was (a redelivery). */
  async markLearned(db: Db, accountId: string, meetingId: string, applied: boolean): Promise<boolean> {
    const r = await db
      .insertInto('memoryLearning')
      .values({ accountId, meetingId, applied })
      .onConflict((oc) => oc.columns(['accountId', 'meetingId']).doNothing())
      .executeTakeFirst();
    return Number(r.numInsertedOrUpdatedRows ?? 0) > 0;
  }

  /**
   * Adds a learned note, or strengthens the same note (one more meeting). A pinned note is the
   * owner's: the service leaves it as it is. One statement, so concurrent meetings cannot race.
   */
  async learn(db: Db, accountId: string, c: LearnCandidate): Promise<'added' | 'strengthened' | 'kept'> {
    const row = await db
      .insertInto('memoryNote')
      .values({ id: newId('mem'), accountId, category: c.category, text: c.text, textKey: c.key, meetingCount: 1 })
      .onConflict((oc) =>
        oc
          .columns(['accountId', 'category', 'textKey'])
          .doUpdateSet((eb) => ({ meetingCount: eb('memoryNote.meetingCount', '+', 1), updatedAt: new Date() }))
          .where('memoryNote.pinned', '=', false),
      )
      .returning('meetingCount')
      .executeTakeFirst();
    if (!row) return 'kept';
    return row.meetingCount === 1 ? 'added' : 'strengthened';
  }
}
