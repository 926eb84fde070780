import type { Kysely } from 'kysely';
import { ApiError, hasScope, type Principal } from '@mm/http';
import type { Database } from '../db/schema';
import type { ListedWithHead } from '../db/recordings.repository';
import { decodeCursor, encodeCursor } from '../domain/cursor';
import type { Repositories } from '../usecases/context';
import type { MeetingAccess } from './access';
import type { Views } from './views';

/** Reads of meetings: status, list, bundle (the token's actions are use cases). */
export class MeetingsService {
  constructor(
    private readonly deps: { db: Kysely<Database>; repos: Repositories; access: MeetingAccess; views: Views },
  ) {}

  async digestTitle(id: string): Promise<string | null> {
    return (await this.deps.repos.digests.heads(this.deps.db, [id])).get(id)?.title ?? null;
  }

  /** Whoever may read the meeting's bundle may read its status; a token without recordings:read only its own sends. */
  async status(p: Principal, id: string) {
    // The row and its digest's title in one statement (a meeting the caller may not read is still one read).
    const row = await this.deps.repos.recordings.getWithDigestTitle(this.deps.db, id);
    const r =
      p.source === 'app' || hasScope(p, 'recordings:read')
        ? (await this.deps.access.readable(p, row)).r
        : this.deps.access.own(p, row);
    return this.deps.views.status(r, row?.digestTitle ?? null);
  }

  async listReady(p: Principal, q: { limit?: number; cursor?: string; seriesId?: string }) {
    const after = q.cursor === undefined ? null : decodeCursor(q.cursor);
    if (q.cursor !== undefined && !after) throw new ApiError('VALIDATION', 'cursor is not a cursor of this list');
    if (q.seriesId !== undefined) await this.deps.access.reachSeries(p, q.seriesId);
    const limit = q.limit ?? 20;
    const rows = await this.deps.repos.recordings.listReady(
      this.deps.db,
      q.seriesId ? { seriesId: q.seriesId } : { accountId: p.accountId },
      after,
      limit + 1,
    );
    const page = rows.slice(0, limit);
    const head = (r: ListedWithHead) =>
      r.digestLanguage === null ? null : { title: r.digestTitle, language: r.digestLanguage };
    return {
      items: page.map((r) => this.deps.views.listItem(r, head(r), p.features.series)),
      nextCursor: rows.length > limit ? encodeCursor(page[page.length - 1]) : null,
    };
  }

  async bundle(p: Principal, id: string) {
    // The row and both documents in one statement (bundles.repository.ts).
    const found = await this.deps.repos.bundles.sources(this.deps.db, id);
    const { r, access } = await this.deps.access.readable(p, found?.row);
    if (r.status !== 'READY')
      throw Object.assign(new ApiError('NOT_READY', 'The meeting is not ready yet.'), { notReadyStatus: r.status });
    const t = found?.transcript;
    const d = found?.digest;
    if (!t || !d) throw new Error(`READY meeting ${r.id} lacks its transcript or digest`);
    return this.deps.views.bundle(r, t, d, access, p.features.series);
  }
}
