import { MmApiError } from './errors';
import { sleep } from './http';
import type { FeedEvent, MeetingMemoryClient, RecordingPage } from './client';

export type RecordingListItem = RecordingPage['items'][number];

/** What followEvents yields: an event, or after a 410 CURSOR_EXPIRED the catch-up the contract prescribes. */
export type FeedItem =
  | { kind: 'event'; event: FeedEvent }
  | {
      kind: 'resync';
      /** Every READY meeting now (the whole list, walked); meetings held but absent: ask their status, 404 = deleted. */
      ready: RecordingListItem[];
      cursor: string;
    };

export interface FollowOptions {
  /** A cursor exactly as received, `latest`, or absent for the oldest event kept. */
  after?: string;
  /** Page size, 1 to 500. */
  limit?: number;
  /** Wait after a page that was not full (contract: about a minute). */
  idleMs?: number;
  signal?: AbortSignal;
  /**
   * Called with the page's nextCursor once every event of the page was handled (the consumer asked
   * for the next item): the cursor to store, as the contract asks. Empty pages advance it too.
   */
  onCursor?: (cursor: string) => void;
  /** Stop when caught up instead of waiting for more. */
  untilCaughtUp?: boolean;
}

/**
 * Reads the events feed as an async iterator; `onCursor` hears each page's cursor once the page
 * is handled. Delivery is at least once: skip events already handled by id. A full page is
 * followed at once, otherwise the next read waits idleMs. On 410 CURSOR_EXPIRED it recovers as the contract says: takes
 * `after=latest`, yields a `resync` with the whole READY list, then reads on from the new cursor.
 */
export async function* followEvents(client: MeetingMemoryClient, opts: FollowOptions = {}): AsyncGenerator<FeedItem> {
  let cursor = opts.after;
  const limit = opts.limit ?? 100;
  for (;;) {
    let page;
    try {
      page = await client.listEvents({ ...(cursor !== undefined ? { after: cursor } : {}), limit }, opts.signal);
    } catch (err) {
      if (!(err instanceof MmApiError && err.code === 'CURSOR_EXPIRED')) throw err;
      const fresh = await client.listEvents({ after: 'latest', limit }, opts.signal);
      yield { kind: 'resync', ready: await allReady(client), cursor: fresh.nextCursor };
      cursor = fresh.nextCursor;
      opts.onCursor?.(cursor);
      continue;
    }
    const events = page.events;
    for (let i = 0; i < events.length; i++) {
      yield { kind: 'event', event: events[i] };
    }
    cursor = page.nextCursor;
    opts.onCursor?.(cursor);
    if (events.length < limit) {
      if (opts.untilCaughtUp) return;
      await sleep(opts.idleMs ?? 60_000, opts.signal);
    }
  }
}

async function allReady(client: MeetingMemoryClient): Promise<RecordingListItem[]> {
  const items: RecordingListItem[] = [];
  let cursor: string | undefined;
  do {
    const page = await client.listReady({ limit: 100, ...(cursor ? { cursor } : {}) });
    items.push(...page.items);
    cursor = page.nextCursor ?? undefined;
  } while (cursor);
  return items;
}
