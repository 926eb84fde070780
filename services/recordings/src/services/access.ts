import { ApiError, hasScope, type Principal } from '@mm/http';
import { RemoteError } from '@mm/bus';
import { BUS, type AccessRole } from '@mm/contract';
import type { RecordingRow } from '../db/schema';
import type { BusCall } from '../usecases/context';

const notFound = () => new ApiError('NOT_FOUND', 'No meeting the token can reach has that id.');
/** A series the caller cannot reach: the same 404 for another account's, a missing one, and every series while series are off. */
export const seriesNotFound = () => new ApiError('NOT_FOUND', 'No series the token can reach has that id.');

/**
 * Who may reach which meeting. Another account's meeting, a deleted one and a missing one all
 * answer the same 404.
 */
export class MeetingAccess {
  constructor(private readonly call: BusCall) {}

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

  /** The caller's access to a series, or null when it cannot read it (or series are off). */
  async seriesAccess(p: Principal, seriesId: string): Promise<AccessRole | null> {
    if (!p.features.series) return null;
    try {
      const s = await this.call(BUS.seriesResolve, { accountId: p.accountId, seriesId });
      return s.access;
    } catch (err) {
      if (err instanceof RemoteError && err.code === 'NOT_FOUND') return null;
      throw err;
    }
  }
}
