/** A series as the API shows it, its defaults and its links. No I/O. */
import { LIMITS, type AccessRole } from '@mm/contract';
import type { DateCalendar, OutputLanguage, RecordingKind, SeriesRow, TitleStyle } from '../db/schema';

/** The contract's limit (Limits: at most 50 series per account), counted over series the account owns. */
export const SERIES_PER_OWNER: number = LIMITS.seriesPerAccount;

export type Access = AccessRole;

export interface SeriesSettings {
  defaultKind: RecordingKind;
  defaultOutputLanguage: OutputLanguage;
  titleStyle: TitleStyle;
  dateCalendar: DateCalendar;
}

/** What a new series takes for each setting left out (createSeries). */
export const SERIES_DEFAULTS: Readonly<SeriesSettings> = Object.freeze({
  defaultKind: 'MEETING',
  defaultOutputLanguage: 'MATCH',
  titleStyle: 'SESSION',
  dateCalendar: 'AUTO',
});

/**
 * A series' finished meetings as the caller can read them (READY, not deleted: what its
 * meetingsUrl lists). Counted by the recordings service, which owns meetings, at read time.
 */
export interface MeetingStats {
  meetingCount: number;
  lastRecordedAt: Date | null;
}

/** A series just created holds no meeting yet. */
export const NO_MEETINGS: Readonly<MeetingStats> = Object.freeze({ meetingCount: 0, lastRecordedAt: null });

/** The `series` object of getSeries, createSeries and updateSeries. */
export function toSeriesView(row: SeriesRow, access: Access, stats: MeetingStats) {
  return {
    id: row.id,
    name: row.name,
    access,
    defaultKind: row.defaultKind,
    defaultOutputLanguage: row.defaultOutputLanguage,
    titleStyle: row.titleStyle,
    dateCalendar: row.dateCalendar,
    meetingCount: stats.meetingCount,
    lastRecordedAt: stats.lastRecordedAt ? stats.lastRecordedAt.toISOString() : null,
  };
}

/** The links of a list item: the series' page in the app, and its finished meetings through the API. */
export function seriesLinks(
  id: string,
  urls: { appUrl: string; publicBaseUrl: string },
): { url: string; meetingsUrl: string } {
  const encoded = encodeURIComponent(id);
  return {
    url: `${urls.appUrl}/series/${encoded}`,
    meetingsUrl: `${urls.publicBaseUrl}/api/v1/recordings/ready?seriesId=${encoded}`,
  };
}

/** An item of listReadableSeries. */
export function toSeriesListItem(
  row: SeriesRow,
  role: Access,
  stats: MeetingStats,
  urls: { appUrl: string; publicBaseUrl: string },
) {
  return { id: row.id, name: row.name, role, meetingCount: stats.meetingCount, ...seriesLinks(row.id, urls) };
}
