import { ApiError, hasScope, type Principal } from '@mm/http';
import type { EventRepository } from '../db/event.repository';
import { CursorError, type CursorCodec } from '../domain/feed-cursor';
import { DAY_MS, KEEP_DAYS, toEventView } from '../domain/feed-event';

export interface FeedRequest {
  /** A cursor as issued, `latest`, or undefined (from the oldest event kept). */
  after?: string;
  limit: number;
}

export interface FeedPage {
  events: ReturnType<typeof toEventView>[];
  nextCursor: string;
}

const expired = () =>
  new ApiError(
    'CURSOR_EXPIRED',
    'The cursor is older than the 30 days events are kept, or from before a restore; take after=latest and catch up.',
  );

/** The events feed: who sees what, cursors, expiry. */
export class EventsService {
  constructor(
    private readonly repo: EventRepository,
    private readonly cursors: CursorCodec,
  ) {}

  async list(p: Principal, req: FeedRequest, now = Date.now()): Promise<FeedPage> {
    const notBefore = now - KEEP_DAYS * DAY_MS;
    if (req.after === 'latest') {
      return { events: [], nextCursor: this.cursors.encode({ seq: await this.repo.currentSeq(), at: now }) };
    }
    let afterSeq = 0n;
    if (req.after !== undefined) {
      let pos;
      try {
        pos = this.cursors.decode(req.after);
      } catch (err) {
        if (err instanceof CursorError) throw new ApiError('VALIDATION', err.message);
        throw err;
      }
      if (pos.at < notBefore) throw expired();
      afterSeq = pos.seq;
    }
    // With recordings:read every event of the account; with recordings:write alone, this token's
    // meetings. The app (a signed-in owner, no token) reads every event of the account too.
    const tokenId = hasScope(p, 'recordings:read') || p.source === 'app' ? undefined : p.tokenId;
    const query = { accountId: p.accountId, tokenId, afterSeq, limit: req.limit + 1, notBefore: new Date(notBefore) };
    let rows;
    if (req.after !== undefined) {
      // The page and the highest seq ever numbered, in one round trip: a position past the
      // latter means the data was restored from before the cursor.
      const read = await this.repo.pageWithCeiling(query);
      if (afterSeq > read.ceiling) throw expired();
      rows = read.rows;
    } else {
      rows = await this.repo.page(query);
    }
    const more = rows.length > req.limit;
    const page = more ? rows.slice(0, req.limit) : rows;
    const last = page[page.length - 1];
    // Rule 9: a cursor ages with the last event it read, or with the read itself once caught up.
    const nextCursor = this.cursors.encode(
      last ? { seq: BigInt(last.seq), at: more ? last.occurredAt.getTime() : now } : { seq: afterSeq, at: now },
    );
    return { events: page.map((r) => toEventView(r, p.features.series)), nextCursor };
  }
}
