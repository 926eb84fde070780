import { sql, type Kysely, type Transaction } from 'kysely';
import { JSONCodec } from 'nats';
import client from 'prom-client';
import type { StreamEntry } from '@mm/contract';
import { contextOf, type Bus } from './connection';
import { parkInDeadLetters } from './dead-letters';
import { check, entryOfSubject, strictSending, subjectFor, versionHeaders } from './table';

const codec = JSONCodec<unknown>();

/** Columns of a service's `outbox` table (the same shape in every schema that has one). */
export interface OutboxTable {
  id: string;
  subject: string;
  payload: unknown;
  /** The version of the entry's schema the payload follows. */
  version: number;
  createdAt: Date;
  publishedAt: Date | null;
  /** Publishes JetStream refused. */
  attempts: number;
  lastError: string | null;
  /** Set when the row was given up on (sent to the dead letters); the rows behind it flow. */
  parkedAt: Date | null;
  seq: number;
}

/**
 * Writes a fact or job to the outbox inside the caller's transaction; the relay publishes it
 * later. The payload is checked against the table first. The id is the message's identity:
 * writing the same id again (a step re-run after a crash) is a no-op, and JetStream drops a
 * re-published id as well.
 */
export async function enqueue<P>(
  trx: Transaction<any> | Kysely<any>,
  entry: StreamEntry<P>,
  id: string,
  payload: P,
): Promise<void> {
  try {
    check(entry, 'payload', payload);
  } catch (err) {
    if (strictSending()) throw err;
  }
  await trx
    .insertInto('outbox')
    .values({ id, subject: subjectFor(entry, payload), payload: JSON.stringify(payload), version: entry.version })
    .onConflict((oc) => oc.column('id').doNothing())
    .execute();
}

/** Publishes a row refused this many times is parked (sent to the dead letters). */
export const OUTBOX_MAX_ATTEMPTS = 3;

/** A publish that failed because the broker is away (everything behind it would fail too): not the row's fault. */
function brokerAway(err: unknown, bus: Bus): boolean {
  const code = String((err as { code?: unknown })?.code ?? '');
  return (
    bus.nc.isClosed() ||
    code === 'TIMEOUT' ||
    code === 'CONNECTION_REFUSED' ||
    code === 'DISCONNECT' ||
    /timeout|disconnect|closed/i.test(String((err as Error)?.message))
  );
}

/**
 * Publishes outbox rows in order with `Nats-Msg-Id` = the row id, so JetStream drops a row
 * published twice (a relay that died between publish and mark). One relay of a schema works at a
 * time (a transaction advisory lock), so rows, and a meeting's events, leave in order even when
 * the service runs several replicas. A row JetStream refuses (no stream takes its subject, too
 * large) is retried a few times, then parked: sent to the dead letters and marked, and the rows
 * behind it flow. When the broker is away, the round stops and everything waits for it.
 */
export function startOutboxRelay(
  db: Kysely<any>,
  bus: Bus,
  onError: (err: unknown) => void,
  intervalMs = 100,
): { stop: () => Promise<void>; kick: () => void } {
  const registry = contextOf(bus.nc).registry;
  if (registry) outboxGauges(registry, db);
  let stopped = false;
  let wake: (() => void) | null = null;
  const kick = () => wake?.();
  const counters = contextOf(bus.nc).counters;
  const round = () =>
    db.transaction().execute(async (trx) => {
      const { rows: locked } = await sql<{
        ok: boolean;
      }>`select pg_try_advisory_xact_lock(hashtext(current_schema() || '.outbox-relay')) as ok`.execute(trx);
      if (!locked[0]?.ok) return 0;
      const rows = await trx
        .selectFrom('outbox')
        .select(['seq', 'id', 'subject', 'payload', 'version', 'attempts'])
        .where('publishedAt', 'is', null)
        .where('parkedAt', 'is', null)
        .orderBy('seq')
        .limit(100)
        .execute();
      const done: number[] = [];
      for (const row of rows as {
        seq: number;
        id: string;
        subject: string;
        payload: unknown;
        version: number;
        attempts: number;
      }[]) {
        try {
          await bus.js.publish(bus.namespace + row.subject, codec.encode(row.payload), {
            msgID: row.id,
            headers: versionHeaders(row.version),
          });
          done.push(row.seq);
        } catch (err) {
          if (brokerAway(err, bus)) {
            onError(err);
            break;
          }
          const problem = String((err as Error)?.message ?? err);
          const parked = row.attempts + 1 >= OUTBOX_MAX_ATTEMPTS;
          if (parked) {
            counters.deadLetters.inc({
              subject: entryOfSubject(row.subject)?.subject ?? row.subject,
              reason: 'refused',
            });
            await parkInDeadLetters(bus, row, problem, `outbox:${bus.service}`).catch(onError);
          }
          await trx
            .updateTable('outbox')
            .set({ attempts: row.attempts + 1, lastError: problem, ...(parked ? { parkedAt: sql`now()` } : {}) })
            .where('seq', '=', row.seq)
            .execute();
          onError(
            Object.assign(
              new Error(
                `outbox row ${row.id} (${row.subject}) refused: ${problem}${parked ? '; parked in the dead letters' : ''}`,
              ),
              { cause: err },
            ),
          );
          if (!parked) break; // tried again next round, still in order
        }
      }
      if (done.length)
        await trx.updateTable('outbox').set({ publishedAt: sql`now()` }).where('seq', 'in', done).execute();
      return rows.length === 100 && done.length === rows.length ? 100 : done.length;
    });
  const loop = (async () => {
    while (!stopped) {
      let published = 0;
      try {
        published = await round();
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

/** The outbox's lag in /metrics, read from the table when scraped. */
function outboxGauges(registry: client.Registry, db: Kysely<any>): void {
  if (registry.getSingleMetric('outbox_waiting_rows')) return;
  let last: Promise<Awaited<ReturnType<typeof outboxLag>>> | null = null;
  // One query per scrape for the three gauges.
  const read = () => (last ??= outboxLag(db).finally(() => setTimeout(() => (last = null), 500)));
  const gauge = (name: string, help: string, pick: (l: Awaited<ReturnType<typeof outboxLag>>) => number) =>
    new client.Gauge({
      name,
      help,
      registers: [registry],
      async collect() {
        this.set(pick(await read().catch(() => ({ waiting: -1, oldestSeconds: -1, parked: -1 }))));
      },
    });
  gauge('outbox_waiting_rows', 'Outbox rows not yet published', (l) => l.waiting);
  gauge('outbox_oldest_seconds', 'Age of the oldest unpublished outbox row (the outbox lag)', (l) => l.oldestSeconds);
  gauge('outbox_parked_rows', 'Outbox rows JetStream refused, parked in the dead letters', (l) => l.parked);
}

/** How many rows wait to be published and how old the oldest is (outbox lag, for /metrics). */
export async function outboxLag(db: Kysely<any>): Promise<{ waiting: number; oldestSeconds: number; parked: number }> {
  const { rows } = await sql<{ waiting: string; oldest: number | null; parked: string }>`
    select count(*) filter (where published_at is null and parked_at is null) as waiting,
           extract(epoch from now() - min(created_at) filter (where published_at is null and parked_at is null)) as oldest,
           count(*) filter (where parked_at is not null) as parked
    from outbox`.execute(db);
  return {
    waiting: Number(rows[0]?.waiting ?? 0),
    oldestSeconds: Number(rows[0]?.oldest ?? 0),
    parked: Number(rows[0]?.parked ?? 0),
  };
}
