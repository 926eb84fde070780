import { ApiError, hasScope, TurnBatcher, type Principal } from '@mm/http';
import { BUS, type AccessRole } from '@mm/contract';
import type { RecordingRow } from '../db/schema';
import type { BusCall } from '../usecases/context';

const notFound = () => new ApiError('NOT_FOUND', 'No meeting the token can reach has that id.');

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

  /**
   * The caller's access to a series, or null when it cannot read it (or series are off). The
   * checks of one turn of the event loop go to the series service in one request (seriesAccess),
   * each still answered for its own account and series, and asked again on the next turn.
   */
  async seriesAccess(p: Principal, seriesId: string): Promise<AccessRole | null> {
    if (!p.features.series) return null;
    return (await this.checks.load(`${p.accountId}${PAIR_SEPARATOR}${seriesId}`)) ?? null;
  }

  private readonly checks = new TurnBatcher<string, AccessRole | null>(async (keys) => {
    const pairs = keys.map((key) => {
      const at = key.indexOf(PAIR_SEPARATOR);
      return { accountId: key.slice(0, at), seriesId: key.slice(at + 1) };
    });
    const { access } = await this.call(BUS.seriesAccess, { pairs });
    return new Map(keys.map((key, i) => [key, access[i] ?? null]));
  }, MAX_CHECKS_PER_REQUEST);
}

/** An account and a series joined into one key (an account id never holds NUL). */
const PAIR_SEPARATOR = '\u0000';
/** Checks per seriesAccess request (the table's bound). */
const MAX_CHECKS_PER_REQUEST = 100;
