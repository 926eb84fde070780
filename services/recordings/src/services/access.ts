import { ApiError, hasScope, type Principal } from '@mm/http';
import { RemoteError } from '@mm/bus';
import { BUS, type AccessRole } from '@mm/contract';
import type { Kysely } from 'kysely';
import type { Database, RecordingRow } from '../db/schema';
import type { SeriesOwnerRepository } from '../db/series-owners.repository';
import type { BusCall } from '../usecases/context';

const notFound = () => new ApiError('NOT_FOUND', 'No meeting the token can reach has that id.');
/** A series the caller cannot reach: the same 404 for another account's, a missing one, and every series while series are off. */
export const seriesNotFound = () => new ApiError('NOT_FOUND', 'No series the token can reach has that id.');

/**
 * Who may reach which meeting. Another account's meeting, a deleted one and a missing one all
 * answer the same 404.
 */
export class MeetingAccess {
  constructor(
    private readonly call: BusCall,
    private readonly db: Kysely<Database>,
    private readonly owners: SeriesOwnerRepository,
  ) {}

  /** Own meetings; a token without recordings:read reaches only the meetings it sent itself. */
  own(p: Principal, r: RecordingRow | undefined): RecordingRow {
    if (!r || r.deletedAt || r.accountId !== p.accountId) throw notFound();
    if (p.source === 'token' && !hasScope(p, 'recordings:read') && r.tokenId !== p.tokenId) throw notFound();
    return r;
  }

  /** Own meetings, or a joined series' meetings (for reading a bundle). */
  async readable<R extends Pick<RecordingRow, 'accountId' | 'seriesId' | 'deletedAt'>>(
    p: Principal,
    r: R | undefined,
  ): Promise<{ r: R; access: AccessRole }> {
    if (!r || r.deletedAt) throw notFound();
    if (r.accountId === p.accountId) return { r, access: 'owner' };
    if (!r.seriesId || !(await this.seriesAccess(p, r.seriesId))) throw notFound();
    return { r, access: 'member' };
  }

  /** The caller's access to a series; 404 (seriesNotFound) when it cannot read it (or series are off). */
  async reachSeries(p: Principal, seriesId: string): Promise<AccessRole> {
    const access = await this.seriesAccess(p, seriesId);
    if (!access) throw seriesNotFound();
    return access;
  }

  /**
   * The caller's access to a series, or null when it cannot read it (or series are off). The
   * series' owner is answered from recordings' copy of its owner (series-owners.repository) without
   * asking the series service; everyone else, and a series not copied yet, asks it (seriesResolve),
   * and an owner's answer is copied for the next time (docs/decisions.md, session 34).
   */
  async seriesAccess(p: Principal, seriesId: string): Promise<AccessRole | null> {
    if (!p.features.series) return null;
    const owner = await this.owners.ownerOf(this.db, seriesId);
    if (owner === p.accountId) return 'owner';
    let access: AccessRole;
    try {
      access = (await this.call(BUS.seriesResolve, { accountId: p.accountId, seriesId })).access;
    } catch (err) {
      if (err instanceof RemoteError && err.code === 'NOT_FOUND') return null;
      throw err;
    }
    if (access === 'owner' && owner === null) await this.owners.remember(this.db, seriesId, p.accountId);
    return access;
  }
}
