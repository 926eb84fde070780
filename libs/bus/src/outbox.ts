import { sql, type Kysely, type Migration, type Transaction } from 'kysely';
import { JSONCodec } from 'nats';
import type { Bus } from './connection';

const codec = JSONCodec<unknown>();

/** Columns of a service's `outbox` table (the same shape in every schema that has one). */
export interface OutboxTable {
  id: string;
  subject: string;
  payload: unknown;
  createdAt: Date;
  publishedAt: Date | null;
  seq: number;
}

/** The migration that creates the outbox table; services include it in their own set. */
export const outboxMigration: Migration = {
  async up(db: Kysely<any>) {
    await db.schema
      .createTable('outbox')
      .addColumn('seq', 'bigserial', (c) => c.primaryKey())
      .addColumn('id', 'text', (c) => c.notNull().unique())
      .addColumn('subject', 'text', (c) => c.notNull())
      .addColumn('payload', 'jsonb', (c) => c.notNull())
      .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
      .addColumn('published_at', 'timestamptz')
      .execute();
    await sql`create index outbox_unpublished on outbox (seq) where published_at is null`.execute(db);
  },
  async down(db: Kysely<any>) {
    await db.schema.dropTable('outbox').execute();
  },
};

/**
 * Writes a fact to the outbox inside the caller's transaction; the relay publishes it later.
 * The id is the message's identity: writing the same id again (a step re-run after a crash) is a
 * no-op, and JetStream drops a re-published id as well.
 */
export async function enqueue(trx: Transaction<any> | Kysely<any>, id: string, subject: string, payload: unknown): Promise<void> {
  await trx
    .insertInto('outbox')
    .values({ id, subject, payload: JSON.stringify(payload) })
    .onConflict((oc) => oc.column('id').doNothing())
    .execute();
}

/**
 * Publishes outbox rows in order with `Nats-Msg-Id` = the row id, so JetStream drops a row
 * published twice (a relay that died between publish and mark). Several replicas may run it:
 * rows are claimed with SKIP LOCKED.
 */
export function startOutboxRelay(db: Kysely<any>, bus: Bus, onError: (err: unknown) => void, intervalMs = 100): { stop: () => Promise<void>; kick: () => void } {
  let stopped = false;
  let wake: (() => void) | null = null;
  const kick = () => wake?.();
  const loop = (async () => {
    while (!stopped) {
      let published = 0;
      try {
        published = await db.transaction().execute(async (trx) => {
          const rows = await trx
            .selectFrom('outbox')
            .select(['seq', 'id', 'subject', 'payload'])
            .where('publishedAt', 'is', null)
            .orderBy('seq')
            .limit(100)
            .forUpdate()
            .skipLocked()
            .execute();
          for (const row of rows) {
            await bus.js.publish(bus.namespace + row.subject, codec.encode(row.payload), { msgID: row.id });
          }
          if (rows.length) {
            await trx.updateTable('outbox').set({ publishedAt: sql`now()` }).where('seq', 'in', rows.map((r: { seq: number }) => r.seq)).execute();
          }
          return rows.length;
        });
      } catch (err) {
        if (!stopped) onError(err);
      }
      if (published === 100) continue;
      await new Promise<void>((resolve) => {
        const t = setTimeout(resolve, intervalMs);
        wake = () => {
          clearTimeout(t);
          resolve();
        };
      });
      wake = null;
    }
  })();
  return {
    kick,
    stop: async () => {
      stopped = true;
      kick();
      await loop;
    },
  };
}
