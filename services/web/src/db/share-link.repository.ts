import type { Kysely } from 'kysely';
import type { Database, ShareLinkRow } from './schema';

/** A share link as the app shows it to its owner (never its secret, which is only in the link). */
export interface ShareLink {
  id: string;
  recordingId: string;
  includeAudio: boolean;
  createdAt: string;
  expiresAt: string | null;
  revokedAt: string | null;
}

const toShareLink = (r: ShareLinkRow): ShareLink => ({
  id: r.id,
  recordingId: r.recordingId,
  includeAudio: r.includeAudio,
  createdAt: r.createdAt.toISOString(),
  expiresAt: r.expiresAt?.toISOString() ?? null,
  revokedAt: r.revokedAt?.toISOString() ?? null,
});

/** The share_link table of the app's own schema. */
export class ShareLinkRepository {
  constructor(readonly db: Kysely<Database>) {}

  async insert(row: {
    id: string;
    secretHash: string;
    accountId: string;
    recordingId: string;
    includeAudio: boolean;
    expiresAt: Date | null;
  }): Promise<ShareLink> {
    return toShareLink(await this.db.insertInto('shareLink').values(row).returningAll().executeTakeFirstOrThrow());
  }

  async ofMeeting(accountId: string, recordingId: string): Promise<ShareLink[]> {
    const rows = await this.db
      .selectFrom('shareLink')
      .selectAll()
      .where('accountId', '=', accountId)
      .where('recordingId', '=', recordingId)
      .orderBy('createdAt', 'desc')
      .limit(50)
      .execute();
    return rows.map(toShareLink);
  }

  /** The live link of this secret's hash: not revoked, not expired; else undefined. */
  async live(secretHash: string): Promise<{ accountId: string; link: ShareLink } | undefined> {
    const r = await this.db
      .selectFrom('shareLink')
      .selectAll()
      .where('secretHash', '=', secretHash)
      .where('revokedAt', 'is', null)
      .where((eb) => eb.or([eb('expiresAt', 'is', null), eb('expiresAt', '>', new Date())]))
      .executeTakeFirst();
    return r ? { accountId: r.accountId, link: toShareLink(r) } : undefined;
  }

  /** Revokes the account's link; false when it has no such link. */
  async revoke(accountId: string, recordingId: string, id: string): Promise<boolean> {
    const r = await this.db
      .updateTable('shareLink')
      .set({ revokedAt: new Date() })
      .where('id', '=', id)
      .where('accountId', '=', accountId)
      .where('recordingId', '=', recordingId)
      .where('revokedAt', 'is', null)
      .executeTakeFirst();
    return Number(r.numUpdatedRows) > 0;
  }
}
