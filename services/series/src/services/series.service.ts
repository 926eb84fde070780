import type { Kysely } from 'kysely';
import type { ResolvedSeries, SeriesChange } from '@mm/contract';
import { ApiError, newId } from '@mm/http';
import { KeytermRuleError, normalizeKeyterms } from '@mm/text';
import type { Database, SeriesRow } from '../db/schema';
import { SeriesRepository, type SeriesPatch } from '../db/series.repository';
import { SeriesNameError, normalizeSeriesName, seriesNameKey } from '../domain/series-name';
import {
  SERIES_DEFAULTS,
  SERIES_PER_OWNER,
  type Access,
  type MeetingStats,
  type SeriesSettings,
} from '../domain/series';

/** Another account's series, a missing one and (upstream) a switched-off feature all answer alike. */
export const seriesNotFound = () => new ApiError('NOT_FOUND', 'No series the caller can reach has that id.');
const nameTaken = () =>
  new ApiError('SERIES_NAME_TAKEN', 'One of your series already has that name (case is ignored).');

/** The name rule as the API answers it: VALIDATION with the rule's message. */
export function checkedSeriesName(raw: string): string {
  try {
    return normalizeSeriesName(raw);
  } catch (err) {
    if (err instanceof SeriesNameError) throw new ApiError('VALIDATION', err.message);
    throw err;
  }
}

/** The term rules as the API answers them: VALIDATION with the rule's message. */
export function checkedKeyterms(terms: unknown[]): string[] {
  try {
    return normalizeKeyterms(terms);
  } catch (err) {
    if (err instanceof KeytermRuleError) throw new ApiError('VALIDATION', err.message);
    throw err;
  }
}

export interface SeriesInput extends Partial<SeriesSettings> {
  name?: string;
}

/**
 * Where meeting counts come from: the recordings service (bus/series-stats.client.ts) in
 * production, a stub in tests.
 */
export interface MeetingStatsSource {
  /** Stats for each id asked (0 and null for a series with no finished meeting). Throws when unavailable. */
  statsOf(seriesIds: string[]): Promise<Map<string, MeetingStats>>;
  /** Tells the meetings' owner that a series' name or title settings changed. */
  seriesChanged(s: SeriesChange): Promise<void>;
}

/** Use cases of series; HTTP routes and bus handlers share them. */
export class SeriesService {
  readonly repo: SeriesRepository;
  constructor(
    private readonly db: Kysely<Database>,
    private readonly meetings: MeetingStatsSource,
  ) {
    this.repo = new SeriesRepository(db);
  }

  /** listReadableSeries: owned then joined, each with its meeting count (one stats request). */
  async listReadable(accountId: string): Promise<{ row: SeriesRow; role: Access; stats: MeetingStats }[]> {
    const rows = await this.repo.listReadable(this.db, accountId);
    if (rows.length === 0) return [];
    const stats = await this.meetings.statsOf(rows.map((r) => r.row.id));
    return rows.map((r) => ({ ...r, stats: stats.get(r.row.id)! }));
  }

  /** The account's own series by name, without meeting counts (appListOwnedSeries: no stats request). */
  async listOwned(accountId: string): Promise<SeriesRow[]> {
    const rows = await this.repo.listReadable(this.db, accountId);
    return rows.filter((r) => r.role === 'owner').map((r) => r.row);
  }

  /** getSeries: a series the account owns or joined, with its meeting stats. */
  async get(accountId: string, id: string): Promise<{ row: SeriesRow; access: Access; stats: MeetingStats }> {
    const found = await this.readable(accountId, id);
    const stats = await this.meetings.statsOf([id]);
    return { ...found, stats: stats.get(id)! };
  }

  async readable(accountId: string, id: string): Promise<{ row: SeriesRow; access: Access }> {
    const found = await this.repo.findReadable(this.db, accountId, id);
    if (!found) throw seriesNotFound();
    return found;
  }

  async owned(accountId: string, id: string): Promise<SeriesRow> {
    const row = await this.repo.findOwned(this.db, accountId, id);
    if (!row) throw seriesNotFound();
    return row;
  }

  /**
   * Creates a series under the owner's lock, so that concurrent creations can neither pass the
   * limit nor share a name. The limit is checked before the name: at the limit no name helps.
   */
  async create(ownerId: string, input: SeriesInput & { name: string }): Promise<SeriesRow> {
    const name = checkedSeriesName(input.name);
    const nameKey = seriesNameKey(name);
    return this.db.transaction().execute(async (trx) => {
      await this.repo.lockOwner(trx, ownerId);
      if ((await this.repo.countOwned(trx, ownerId)) >= SERIES_PER_OWNER) {
        throw new ApiError('SERIES_LIMIT', `An account owns at most ${SERIES_PER_OWNER} series.`);
      }
      if (await this.repo.nameTaken(trx, ownerId, nameKey)) throw nameTaken();
      const row = await this.repo.insert(trx, {
        id: newId('ser'),
        ownerId,
        name,
        nameKey,
        defaultKind: input.defaultKind ?? SERIES_DEFAULTS.defaultKind,
        defaultOutputLanguage: input.defaultOutputLanguage ?? SERIES_DEFAULTS.defaultOutputLanguage,
        titleStyle: input.titleStyle ?? SERIES_DEFAULTS.titleStyle,
        dateCalendar: input.dateCalendar ?? SERIES_DEFAULTS.dateCalendar,
      });
      if (row === 'taken') throw nameTaken();
      return row;
    });
  }

  /**
   * Changes an owned series; omitted fields keep their value. Another account's series is
   * NOT_FOUND. The meeting stats are asked first: if the recordings service does not answer, the
   * request fails with nothing written, and a retry is safe.
   */
  async update(ownerId: string, id: string, input: SeriesInput): Promise<{ row: SeriesRow; stats: MeetingStats }> {
    const patch: SeriesPatch = {};
    if (input.name !== undefined) {
      patch.name = checkedSeriesName(input.name);
      patch.nameKey = seriesNameKey(patch.name);
    }
    for (const k of ['defaultKind', 'defaultOutputLanguage', 'titleStyle', 'dateCalendar'] as const) {
      if (input[k] !== undefined) (patch as Record<string, unknown>)[k] = input[k];
    }
    if (!(await this.repo.findOwned(this.db, ownerId, id))) throw seriesNotFound();
    const stats = (await this.meetings.statsOf([id])).get(id)!;
    const row = await this.db.transaction().execute(async (trx) => {
      if (!(await this.repo.findOwned(trx, ownerId, id))) throw seriesNotFound();
      if (patch.nameKey && (await this.repo.nameTaken(trx, ownerId, patch.nameKey, id))) throw nameTaken();
      const updated = await this.repo.update(trx, ownerId, id, patch);
      if (updated === 'taken') throw nameTaken();
      if (!updated) throw seriesNotFound();
      return updated;
    });
    if (patch.name !== undefined || input.titleStyle !== undefined || input.dateCalendar !== undefined) {
      await this.meetings.seriesChanged({
        seriesId: row.id,
        name: row.name,
        titleStyle: row.titleStyle,
        dateCalendar: row.dateCalendar,
      });
    }
    return { row, stats };
  }

  async replaceKeyterms(
    ownerId: string,
    id: string,
    terms: unknown[],
    inheritAccountKeyterms: boolean,
  ): Promise<SeriesRow> {
    const keyterms = checkedKeyterms(terms);
    const row = await this.repo.replaceKeyterms(this.db, ownerId, id, keyterms, inheritAccountKeyterms);
    if (!row) throw seriesNotFound();
    return row;
  }

  /** A series as a meeting filed in it needs it; NOT_FOUND when the account can read no such series. */
  async resolve(accountId: string, seriesId: string): Promise<ResolvedSeries> {
    const { row, access } = await this.readable(accountId, seriesId);
    return {
      id: row.id,
      name: row.name,
      titleStyle: row.titleStyle,
      dateCalendar: row.dateCalendar,
      access,
      keyterms: row.keyterms,
      inheritAccountKeyterms: row.inheritAccountKeyterms,
    };
  }

  /** Adds a member (the app's invite accepted); idempotent. The owner cannot join their own series. */
  async addMember(
    seriesId: string,
    accountId: string,
  ): Promise<{ seriesId: string; accountId: string; added: boolean }> {
    const row = await this.repo.findById(this.db, seriesId);
    if (!row) throw seriesNotFound();
    if (row.ownerId === accountId)
      throw new ApiError('VALIDATION', 'The account owns this series; an owner is not a member.');
    return { seriesId, accountId, added: await this.repo.addMember(this.db, seriesId, accountId) };
  }
}
