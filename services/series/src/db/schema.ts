import type { Generated, Insertable, Selectable } from 'kysely';

import type { DateCalendar, OutputLanguage, RecordingKind, TitleStyle } from '@mm/contract';

export type { DateCalendar, OutputLanguage, RecordingKind, TitleStyle };

/** One row per account that ever created a series: locked while creating, so the limit holds. */
export interface SeriesOwnerTable {
  ownerId: string;
  createdAt: Generated<Date>;
}

export interface SeriesTable {
  id: string;
  ownerId: string;
  name: string;
  /** Uniqueness key of the name (case ignored); unique per owner. */
  nameKey: string;
  defaultKind: RecordingKind;
  defaultOutputLanguage: OutputLanguage;
  titleStyle: TitleStyle;
  dateCalendar: DateCalendar;
  keyterms: Generated<string[]>;
  inheritAccountKeyterms: Generated<boolean>;
  /** Where the owner sends the series' summaries. */
  emailList: Generated<string[]>;
  createdAt: Generated<Date>;
  updatedAt: Generated<Date>;
}

export interface MemberTable {
  seriesId: string;
  accountId: string;
  /** The name the member had when they accepted an invite (null when the operator added them). */
  displayName: Generated<string | null>;
  createdAt: Generated<Date>;
}

/** An invite link to a series: only a keyed hash of its secret; single use. */
export interface InviteTable {
  secretHash: string;
  seriesId: string;
  createdAt: Generated<Date>;
  expiresAt: Date;
  acceptedBy: Generated<string | null>;
  acceptedAt: Generated<Date | null>;
}

export type SeriesRow = Selectable<SeriesTable>;
export type NewSeries = Insertable<SeriesTable>;

export interface Database {
  seriesOwner: SeriesOwnerTable;
  series: SeriesTable;
  member: MemberTable;
  invite: InviteTable;
}
