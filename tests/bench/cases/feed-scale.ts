/**
 * feed-scale: GET /api/v1/events through the gateway over 1,000,000 events of 1,000 accounts
 * (lib/feed-loader.ts), one request at a time: `after=latest`, the first page from the oldest event
 * kept, a walk of the big account's whole history by its cursors (each event once, in feed order),
 * then old cursors from that walk replayed in random order; the small account's first page and
 * latest. Then the 30-day retention: a backlog of expired events (30% of the table) is deleted by
 * the events service's own batch deleter while the feed is read, and must be gone afterwards.
 */
import { openDatabase } from '@mm/db';
import { EventRepository } from '../../../services/events/src/db/event.repository';
import type { Database } from '../../../services/events/src/db/schema';
import { DAY_MS, DELETE_AFTER_DAYS } from '../../../services/events/src/domain/feed-event';
import { DEFAULT_RETENTION, pruneEvents } from '../../../services/events/src/services/retention.service';
import { createAccount, createToken } from '../lib/admin';
import { addExpiredEvents, DEFAULT_FEED, ensureFeed, type FeedShape, type LoadedFeed } from '../lib/feed-loader';
import { summarize, timedGet, type LatencySummary } from '../lib/latency';
import { loadAverage } from '../lib/proc';
import { fmt } from '../lib/report';
import { seededRandom } from '../../support/seeded-random';
import { BenchError, type BenchCase, type CaseContext, type CaseReport } from '../lib/types';

const TARGET_P99_MS = 20;
const REPEAT = 200;
const OLD_CURSORS = 300;
const PAGE = 100;
/** The retention backlog, as a share of the loaded events. */
const EXPIRED_SHARE = 0.3;

interface FeedPage {
  events: Array<{ id: string; occurredAt: string }>;
  nextCursor: string;
}

function shapeFromEnv(def: FeedShape): FeedShape {
  const n = (name: string, d: number) => (process.env[name] ? Number(process.env[name]) : d);
  const events = n('BENCH_FEED_EVENTS', def.events);
  return { ...def, events, bigAccountEvents: Math.floor(events / 20) };
}

async function repeat(times: number, url: string, headers: Record<string, string>): Promise<number[]> {
  const ms: number[] = [];
  for (let i = 0; i < times; i++) ms.push((await timedGet<FeedPage>(url, headers)).ms);
  return ms;
}

/** Retention while the feed is read: the service's own pruner, and reads of old cursors meanwhile. */
async function retentionRun(ctx: CaseContext, feed: LoadedFeed, readUrls: string[], headers: Record<string, string>) {
  const url = ctx.opts.databaseUrl;
  const expired = Math.round(feed.shape.events * EXPIRED_SHARE);
  ctx.log(`retention: adding ${expired.toLocaleString('en-US')} expired events`);
  await addExpiredEvents(url, feed, expired);
  const { db } = openDatabase<Database>({ url, schema: 'events', poolSize: 2 });
  try {
    const rows = async () =>
      Number(
        (
          await db
            .selectFrom('event')
            .select((e) => e.fn.countAll<string>().as('n'))
            .executeTakeFirstOrThrow()
        ).n,
      );
    const cutoff = new Date(Date.now() - DELETE_AFTER_DAYS * DAY_MS);
    const stale = async () =>
      Number(
        (
          await db
            .selectFrom('event')
            .select((e) => e.fn.countAll<string>().as('n'))
            .where('occurredAt', '<', cutoff)
            .executeTakeFirstOrThrow()
        ).n,
      );
    const before = await rows();
    const staleBefore = await stale();
    ctx.log(
      `retention: ${before.toLocaleString('en-US')} rows, ${staleBefore.toLocaleString('en-US')} expired; deleting in batches of ${DEFAULT_RETENTION.batchSize} while reading`,
    );
    let done = false;
    const started = performance.now();
    const pruning = pruneEvents(new EventRepository(db), cutoff, DEFAULT_RETENTION).finally(() => (done = true));
    const during: number[] = [];
    for (let i = 0; !done; i++) during.push((await timedGet<FeedPage>(readUrls[i % readUrls.length], headers)).ms);
    const result = await pruning;
    const seconds = (performance.now() - started) / 1000;
    return {
      expiredAdded: expired,
      rowsBefore: before,
      staleBefore,
      deleted: result.deleted,
      batches: result.batches,
      seconds,
      rowsAfter: await rows(),
      staleAfter: await stale(),
      during: summarize(during),
    };
  } finally {
    await db.destroy();
  }
}

export const feedScaleCase: BenchCase = {
  name: 'feed-scale',
  description:
    'GET /events from latest and from old cursors at 1,000,000 events over 1,000 accounts; retention deleting a 30% backlog in batches while read',
  implemented: true,
  services: ['account', 'recordings', 'events', 'gateway'],
  async run(ctx: CaseContext): Promise<CaseReport> {
    const gateway = ctx.stack.url('gateway');
    const loadAtStart = loadAverage();
    const newAccount = async (name: string) =>
      (await createAccount(gateway, { displayName: name, developerMode: true, balanceMinutes: 10 })).id;
    const feed = await ensureFeed(
      ctx.opts.databaseUrl,
      shapeFromEnv(DEFAULT_FEED),
      async () => ({ big: await newAccount('bench feed big'), small: await newAccount('bench feed small') }),
      ctx.log,
    );
    const tokenOf = async (account: string) => ({
      Authorization: `Bearer ${(await createToken(gateway, account, { name: 'bench feed', scopes: ['recordings:read'], expiresInDays: 30 })).value}`,
    });
    const big = await tokenOf(feed.bigAccountId);
    const small = await tokenOf(feed.smallAccountId);
    const base = `${gateway}/api/v1/events?limit=${PAGE}`;

    // Warm-up (JIT, pools, the token caches): each kind of read a hundred times.
    await repeat(100, base, big);
    await repeat(100, `${base}&after=latest`, big);
    const latest = await repeat(REPEAT, `${base}&after=latest`, big);
    const oldest = await repeat(REPEAT, base, big);

    // The big account's whole history, page by page: each event once, oldest first.
    ctx.log(`walking the big account's ${feed.shape.bigAccountEvents.toLocaleString('en-US')} events`);
    const walk: number[] = [];
    const cursors: string[] = [];
    const seen = new Set<string>();
    let previous = -Infinity;
    let cursor: string | null = null;
    for (;;) {
      ctx.checkAborted();
      const r: { ms: number; body: FeedPage } = await timedGet<FeedPage>(
        cursor ? `${base}&after=${encodeURIComponent(cursor)}` : base,
        big,
      );
      walk.push(r.ms);
      for (const e of r.body.events) {
        const at = Date.parse(e.occurredAt);
        if (seen.has(e.id) || at < previous) throw new BenchError(`feed walk: ${e.id} repeated or out of order`);
        seen.add(e.id);
        previous = at;
      }
      if (r.body.events.length < PAGE) break;
      cursor = r.body.nextCursor;
      cursors.push(cursor);
    }
    const bigEvents = [...seen].filter((id) => id.startsWith('evb_')).length;
    if (bigEvents !== feed.shape.bigAccountEvents)
      throw new BenchError(
        `feed walk read ${bigEvents} loaded events, not the big account's ${feed.shape.bigAccountEvents}`,
      );

    const random = seededRandom(2026);
    const oldUrls = Array.from(
      { length: OLD_CURSORS },
      () => `${base}&after=${encodeURIComponent(cursors[Math.floor(random() * cursors.length)])}`,
    );
    const old: number[] = [];
    for (const u of oldUrls) old.push((await timedGet<FeedPage>(u, big)).ms);
    const smallFirst = await repeat(REPEAT / 2, base, small);
    const smallLatest = await repeat(REPEAT / 2, `${base}&after=latest`, small);

    const retention = await retentionRun(ctx, feed, [...oldUrls.slice(0, 50), `${base}&after=latest`], big);
    const loadAtEnd = loadAverage();

    const s = {
      latest: summarize([...latest, ...smallLatest]),
      oldest: summarize([...oldest, ...smallFirst]),
      walk: summarize(walk),
      old: summarize(old),
    };
    const cursorReads = summarize([...walk, ...old]);
    const row = (label: string, x: LatencySummary) => [
      label,
      fmt.int(x.n),
      fmt.ms(x.p50),
      fmt.ms(x.p99),
      fmt.ms(x.max),
    ];
    const conditions =
      `data: ${feed.shape.events.toLocaleString('en-US')} events over ${feed.shape.accounts} accounts (big account ${feed.shape.bigAccountEvents.toLocaleString('en-US')}, small ${feed.smallAccountEvents.toLocaleString('en-US')}) over ${feed.shape.days} days; ` +
      `table ${(feed.tableBytes / 1024 / 1024).toFixed(0)} MiB${feed.loadSeconds === null ? ' (loaded by an earlier run)' : ` (loaded in ${feed.loadSeconds.toFixed(0)} s)`}; ` +
      `log level ${ctx.opts.serviceEnv.LOG_LEVEL ?? 'warn'}; one request at a time; load average ${loadAtStart.toFixed(2)} before, ${loadAtEnd.toFixed(2)} after`;
    return {
      tables: [
        {
          title: `feed-scale — GET /api/v1/events?limit=${PAGE} through the gateway, one request at a time`,
          table: {
            headers: ['reads', 'requests', 'p50 ms', 'p99 ms', 'max ms'],
            rows: [
              row('after=latest (big and small account)', s.latest),
              row('first page from the oldest kept (big and small)', s.oldest),
              row(`walk of the big account, every page (${walk.length})`, s.walk),
              row(`old cursors of that walk, random order`, s.old),
              row(`while retention deleted ${retention.deleted.toLocaleString('en-US')} events`, retention.during),
            ],
          },
        },
      ],
      lines: [
        conditions,
        `retention: ${retention.rowsBefore.toLocaleString('en-US')} rows with ${retention.staleBefore.toLocaleString('en-US')} expired → deleted ${retention.deleted.toLocaleString('en-US')} in ${retention.batches} batches of ${DEFAULT_RETENTION.batchSize} (pauses as long as each batch, at least ${DEFAULT_RETENTION.pauseMs} ms) in ${retention.seconds.toFixed(1)} s; ${retention.rowsAfter.toLocaleString('en-US')} rows after, ${retention.staleAfter} expired`,
      ],
      data: { feed, latency: s, cursorReads, retention, loadAtStart, loadAtEnd },
      summary: `latest p99 ${fmt.ms(s.latest.p99)} ms, old cursors p99 ${fmt.ms(cursorReads.p99)} ms, during retention p99 ${fmt.ms(retention.during.p99)} ms; ${feed.shape.events.toLocaleString('en-US')} events`,
      targets: [
        {
          label: `feed from latest and from the oldest kept: p99 < ${TARGET_P99_MS} ms`,
          pass: Math.max(s.latest.p99, s.oldest.p99) < TARGET_P99_MS,
          measured: `latest p99 ${fmt.ms(s.latest.p99)} ms, oldest p99 ${fmt.ms(s.oldest.p99)} ms`,
        },
        {
          label: `feed from old cursors (walk and random): p99 < ${TARGET_P99_MS} ms`,
          pass: cursorReads.p99 < TARGET_P99_MS,
          measured: `p99 ${fmt.ms(cursorReads.p99)} ms over ${cursorReads.n} requests`,
        },
        {
          label: `feed while retention deletes a ${Math.round(EXPIRED_SHARE * 100)}% backlog: p99 < ${TARGET_P99_MS} ms`,
          pass: retention.during.p99 < TARGET_P99_MS,
          measured: `p99 ${fmt.ms(retention.during.p99)} ms over ${retention.during.n} requests`,
        },
        {
          label: 'retention leaves no expired event (the table does not grow without bound)',
          pass: retention.staleAfter === 0 && retention.rowsAfter <= retention.rowsBefore - retention.staleBefore,
          measured: `${retention.staleAfter} expired left, ${retention.rowsAfter.toLocaleString('en-US')} rows`,
        },
      ],
    };
  },
};
