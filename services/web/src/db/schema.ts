import type { Generated, Selectable } from 'kysely';

export interface ShareLinkTable {
  id: string;
  secretHash: string;
  accountId: string;
  recordingId: string;
  includeAudio: Generated<boolean>;
  createdAt: Generated<Date>;
  expiresAt: Date | null;
  revokedAt: Date | null;
}
export type ShareLinkRow = Selectable<ShareLinkTable>;

export interface Database {
  shareLink: ShareLinkTable;
}
