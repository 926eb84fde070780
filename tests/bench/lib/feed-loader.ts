/**
 * The bulk loader of feed-scale: meeting events written straight into the events schema, row for
 * row what the events service stores for a `recordings.recording.*` fact (checked on a sample:
 * each row, read back as the bus message it came from, passes the bus table's check and maps to
 * itself through the service's own toNewEvent). INSERT … SELECT over generate_series in batches,
 * so nothing crosses the socket but the statements.
 *
 * The events stay in the bench database between runs (a bench_feed.dataset row names them); a run
 * with the same shape reuses them. Expired events added for the retention measurement are removed
 * by that measurement.
 */
import type { PoolClient } from 'pg';
import { check } from '@mm/bus';
import { BUS, type RecordingEvent } from '@mm/contract';
import { openDatabase } from '@mm/db';
import { toNewEvent } from '../../../services/events/src/domain/feed-event';
import { BenchError } from './types';

export interface FeedShape {
  events: number;
  accounts: number;
  /** Every 20th event belongs to the big account. */
  bigAccountEvents: number;
  /** Events spread evenly over this many days before the load (all within the 30 days kept). */
  days: number;
}

export const DEFAULT_FEED: FeedShape = { events: 1_000_000, accounts: 1_000, bigAccountEvents: 50_000, days: 29 };

export interface LoadedFeed {
  shape: FeedShape;
  bigAccountId: string;
  smallAccountId: string;
  smallAccountEvents: number;
  loadSeconds: number | null;
  tableBytes: number;
}

/** The event types in rotation, with the data each carries (contract: Events). */
const KINDS: Array<{ type: RecordingEvent['type']; data: RecordingEvent['data'] }> = [
  { type: 'recording.created', data: { status: 'QUEUED' } },
  { type: 'recording.created', data: { status: 'QUEUED' } },
  { type: 'recording.naming_required', data: { status: 'NAMING' } },
  { type: 'recording.ready', data: { status: 'READY' } },
  { type: 'recording.ready', data: { status: 'READY' } },
  { type: 'recording.updated', data: { status: 'READY', change: 'renamed' } },
  { type: 'recording.updated', data: { status: 'READY', change: 'regenerated' } },
  { type: 'recording.failed', data: { status: 'FAILED', error: { code: 'AUDIO_CORRUPT', retryable: false } } },
  { type: 'recording.deleted', data: { status: 'READY' } },
  { type: 'recording.ready', data: { status: 'READY' } },
];

const ID_PREFIX = 'evb_';
const BATCH = 100_000;

/**
 * Rows `from`..`to` (1-based): event i belongs to the big account when i % 20 = 0, to the small
 * one when i % 1000 = 1, else to one of the other accounts; three events per meeting; occurred_at
 * rises with i (so seq order is time order, as in the live feed).
 */
async function insertRange(
  c: PoolClient,
  from: number,
  to: number,
  startMs: number,
  stepMs: number,
  accounts: { big: string; small: string; others: number },
  idPrefix: string,
): Promise<void> {
  await c.query(
    `insert into events.event (id, account_id, token_id, recording_id, series_id, type, occurred_at, data)
     select $1 || i,
            case when i % 20 = 0 then $2 when i % 1000 = 1 then $3 else 'acc_feed_' || (i % $4) end,
            case when i % 3 = 0 then 'tok_feed_' || (i % 7) end,
            'rec_feed_' || (i / 3),
            case when i % 5 = 0 then 'ser_feed_' || (i % 11) end,
            ($5::text[])[i % 10 + 1],
            to_timestamp(($6::float8 + i * $7::float8) / 1000),
            ($8::jsonb[])[i % 10 + 1]
       from generate_series($9::int, $10::int) as i`,
    [
      idPrefix,
      accounts.big,
      accounts.small,
      accounts.others,
      KINDS.map((k) => k.type),
      startMs,
      stepMs,
      KINDS.map((k) => JSON.stringify(k.data)),
      from,
      to,
    ],
  );
}

/** Rows read back as the bus messages they stand for must pass the table and map to themselves. */
async function checkSameRows(c: PoolClient, sample: number): Promise<void> {
  const { rows } = await c.query<{
    id: string;
    type: RecordingEvent['type'];
    recording_id: string;
    account_id: string;
    token_id: string | null;
    series_id: string | null;
    occurred_at: Date;
    data: RecordingEvent['data'];
  }>(`select * from events.event where id like '${ID_PREFIX}%' order by random() limit $1`, [sample]);
  for (const r of rows) {
    const message: RecordingEvent = {
      id: r.id,
      type: r.type,
      recordingId: r.recording_id,
      accountId: r.account_id,
      tokenId: r.token_id,
      seriesId: r.series_id,
      occurredAt: r.occurred_at.toISOString(),
      data: r.data,
    };
    check(BUS.recordingEvent, 'payload', message);
    const stored = toNewEvent(message);
    const same =
      stored.id === r.id &&
      stored.type === r.type &&
      stored.recordingId === r.recording_id &&
      stored.accountId === r.account_id &&
      stored.tokenId === r.token_id &&
      stored.seriesId === r.series_id &&
      new Date(stored.occurredAt).getTime() === r.occurred_at.getTime() &&
      stored.data === JSON.stringify(r.data);
    if (!same) throw new BenchError(`feed loader: row ${r.id} is not what the events service stores for its message`);
  }
}

/** The events of `shape` for two accounts made by the caller: reused when already loaded, else loaded. */
export async function ensureFeed(
  url: string,
  shape: FeedShape,
  accounts: () => Promise<{ big: string; small: string }>,
  log: (m: string) => void,
): Promise<LoadedFeed> {
  const { pool } = openDatabase<unknown>({ url, schema: 'events', poolSize: 1 });
  const c = await pool.connect();
  try {
    await c.query('create schema if not exists bench_feed');
    await c.query(
      'create table if not exists bench_feed.dataset (name text primary key, shape jsonb not null, big text not null, small text not null)',
    );
    const found = await c.query<{ shape: FeedShape; big: string; small: string }>(
      `select shape, big, small from bench_feed.dataset where name = 'feed'`,
    );
    const have = found.rows[0];
    const count = async (account: string) =>
      Number(
        (
          await c.query<{ n: string }>(
            `select count(*) as n from events.event where account_id = $1 and id like '${ID_PREFIX}%'`,
            [account],
          )
        ).rows[0].n,
      );
    const sameShape = have && (Object.keys(shape) as (keyof FeedShape)[]).every((k) => have.shape[k] === shape[k]);
    let loadSeconds: number | null = null;
    let big: string;
    let small: string;
    if (have && sameShape && (await count(have.big)) === shape.bigAccountEvents) {
      ({ big, small } = have);
      log(`feed: reusing the loaded events (${shape.events.toLocaleString('en-US')}; accounts ${big}, ${small})`);
    } else {
      ({ big, small } = await accounts());
      log(
        `feed: loading ${shape.events.toLocaleString('en-US')} events over ${shape.accounts} accounts (kept for the next run)`,
      );
      const started = performance.now();
      await c.query(`delete from bench_feed.dataset where name = 'feed'`);
      await c.query(`delete from events.event where id like '${ID_PREFIX}%' or id like 'evx_%'`);
      const stepMs = (shape.days * 86_400_000) / shape.events;
      const startMs = Date.now() - shape.days * 86_400_000;
      for (let from = 1; from <= shape.events; from += BATCH) {
        const to = Math.min(shape.events, from + BATCH - 1);
        await insertRange(c, from, to, startMs, stepMs, { big, small, others: shape.accounts - 2 }, ID_PREFIX);
        log(`feed: ${to.toLocaleString('en-US')} events`);
      }
      await c.query('vacuum analyze events.event');
      await c.query(`insert into bench_feed.dataset (name, shape, big, small) values ('feed', $1, $2, $3)`, [
        JSON.stringify(shape),
        big,
        small,
      ]);
      loadSeconds = (performance.now() - started) / 1000;
    }
    await checkSameRows(c, 20);
    const tableBytes = Number(
      (await c.query<{ b: string }>(`select pg_total_relation_size('events.event') as b`)).rows[0].b,
    );
    return {
      shape,
      bigAccountId: big,
      smallAccountId: small,
      smallAccountEvents: await count(small),
      loadSeconds,
      tableBytes,
    };
  } finally {
    c.release();
    await pool.end();
  }
}

/**
 * Adds `n` expired events (32 to 60 days old) over the same accounts, for the retention run to
 * delete. Their ids start with `evx_`.
 */
export async function addExpiredEvents(url: string, feed: LoadedFeed, n: number): Promise<void> {
  const { pool } = openDatabase<unknown>({ url, schema: 'events', poolSize: 1 });
  const c = await pool.connect();
  try {
    const startMs = Date.now() - 60 * 86_400_000;
    await insertRange(
      c,
      1,
      n,
      startMs,
      (28 * 86_400_000) / n,
      { big: feed.bigAccountId, small: feed.smallAccountId, others: feed.shape.accounts - 2 },
      'evx_',
    );
    await c.query('analyze events.event');
  } finally {
    c.release();
    await pool.end();
  }
}
