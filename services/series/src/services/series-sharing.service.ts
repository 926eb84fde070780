import { createHmac, randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import { sql } from 'kysely';
import { ApiError } from '@mm/http';
import type { Database, SeriesRow } from '../db/schema';
import { seriesNotFound } from './series.service';

/** How long an invite link can be accepted. */
export const INVITE_DAYS = 7;
/** Open invites a series can have at once (old ones must be used or expire first). */
export const OPEN_INVITES_PER_SERIES = 20;
const inviteNotFound = () => new ApiError('NOT_FOUND', 'No invite has that id.');

/**
 * A series' sharing, which the contract keeps in the app: invite links (a 256-bit secret, only its
 * keyed hash stored, single use, 7 days), members (the owner removes one, a member leaves), the
 * email list, and deleting the series. Another account's series or invite is NOT_FOUND.
 */
export class SeriesSharingService {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly secretKey: string,
    /** Tells the meetings' owner (recordings) that a series goes: its meetings move out of it. */
    private readonly meetings: { seriesDeleted(seriesId: string): Promise<void> },
  ) {}

  private hash(secret: string): string {
    return createHmac('sha256', `series-invite\0${this.secretKey}`).update(secret).digest('base64url');
  }

  private async owned(ownerId: string, id: string): Promise<SeriesRow> {
    const row = await this.db
      .selectFrom('series')
      .selectAll()
      .where('id', '=', id)
      .where('ownerId', '=', ownerId)
      .executeTakeFirst();
    if (!row) throw seriesNotFound();
    return row;
  }

  async createInvite(ownerId: string, seriesId: string): Promise<{ secret: string; expiresAt: Date }> {
    await this.owned(ownerId, seriesId);
    const open = await this.db
      .selectFrom('invite')
      .select((eb) => eb.fn.countAll<string>().as('n'))
      .where('seriesId', '=', seriesId)
      .where('acceptedBy', 'is', null)
      .where('expiresAt', '>', sql<Date>`now()`)
      .executeTakeFirstOrThrow();
    if (Number(open.n) >= OPEN_INVITES_PER_SERIES)
      throw new ApiError('VALIDATION', `A series has at most ${OPEN_INVITES_PER_SERIES} open invites.`);
    const secret = randomBytes(32).toString('base64url');
    const expiresAt = new Date(Date.now() + INVITE_DAYS * 86_400_000);
    await this.db
      .insertInto('invite')
      .values({ secretHash: this.hash(secret), seriesId, expiresAt })
      .execute();
    return { secret, expiresAt };
  }

  /** An invite as the person holding the link sees it; used, expired or unknown: NOT_FOUND. */
  private async openInvite(accountId: string, secret: string) {
    const row = await this.db
      .selectFrom('invite')
      .innerJoin('series', 'series.id', 'invite.seriesId')
      .select([
        'invite.secretHash',
        'invite.seriesId',
        'invite.expiresAt',
        'invite.acceptedBy',
        'series.name',
        'series.ownerId',
      ])
      .where('invite.secretHash', '=', this.hash(secret))
      .executeTakeFirst();
    if (!row || row.expiresAt.getTime() <= Date.now()) throw inviteNotFound();
    // A used link answers only the person who used it (so a second click just opens the series).
    if (row.acceptedBy !== null && row.acceptedBy !== accountId) throw inviteNotFound();
    return row;
  }

  async readInvite(accountId: string, secret: string) {
    const row = await this.openInvite(accountId, secret);
    const member = await this.db
      .selectFrom('member')
      .select('accountId')
      .where('seriesId', '=', row.seriesId)
      .where('accountId', '=', accountId)
      .executeTakeFirst();
    return {
      seriesId: row.seriesId,
      seriesName: row.name,
      ownerName: null,
      expiresAt: row.expiresAt.toISOString(),
      alreadyIn: row.ownerId === accountId || member !== undefined,
    };
  }

  /** Joins the invite's series and uses the link up; the owner's own link is refused. Idempotent for the one who used it. */
  async acceptInvite(
    accountId: string,
    displayName: string | null,
    secret: string,
  ): Promise<{ seriesId: string; joined: boolean }> {
    return this.db.transaction().execute(async (trx) => {
      const row = await trx
        .selectFrom('invite')
        .select(['seriesId', 'acceptedBy', 'expiresAt'])
        .where('secretHash', '=', this.hash(secret))
        .forUpdate()
        .executeTakeFirst();
      if (!row || row.expiresAt.getTime() <= Date.now() || (row.acceptedBy !== null && row.acceptedBy !== accountId))
        throw inviteNotFound();
      const series = await trx
        .selectFrom('series')
        .select('ownerId')
        .where('id', '=', row.seriesId)
        .executeTakeFirstOrThrow();
      if (series.ownerId === accountId)
        throw new ApiError('VALIDATION', 'You own this series; send the link to someone else.');
      if (row.acceptedBy === null) {
        await trx
          .updateTable('invite')
          .set({ acceptedBy: accountId, acceptedAt: sql<Date>`now()` })
          .where('secretHash', '=', this.hash(secret))
          .execute();
      }
      const r = await trx
        .insertInto('member')
        .values({ seriesId: row.seriesId, accountId, displayName: displayName?.slice(0, 200) ?? null })
        .onConflict((oc) => oc.columns(['seriesId', 'accountId']).doNothing())
        .executeTakeFirst();
      return { seriesId: row.seriesId, joined: Number(r.numInsertedOrUpdatedRows ?? 0) > 0 };
    });
  }

  /** Members (owner and members see them); the open invites only for the owner. */
  async members(accountId: string, seriesId: string) {
    const row = await this.db.selectFrom('series').select('ownerId').where('id', '=', seriesId).executeTakeFirst();
    const rows = row
      ? await this.db
          .selectFrom('member')
          .select(['accountId', 'displayName', 'createdAt'])
          .where('seriesId', '=', seriesId)
          .orderBy('createdAt')
          .orderBy('accountId')
          .execute()
      : [];
    const owner = row?.ownerId === accountId;
    if (!row || (!owner && !rows.some((m) => m.accountId === accountId))) throw seriesNotFound();
    const invites = owner
      ? await this.db
          .selectFrom('invite')
          .select(['createdAt', 'expiresAt', 'secretHash'])
          .where('seriesId', '=', seriesId)
          .where('acceptedBy', 'is', null)
          .where('expiresAt', '>', sql<Date>`now()`)
          .orderBy('createdAt')
          .execute()
      : [];
    return {
      members: rows.map((m) => ({
        accountId: m.accountId,
        displayName: m.displayName,
        joinedAt: m.createdAt.toISOString(),
      })),
      // The hash's first characters tell invites apart; the secret itself is never shown again.
      invites: invites.map((i) => ({ idPrefix: i.secretHash.slice(0, 6), expiresAt: i.expiresAt.toISOString() })),
    };
  }

  /** The owner removes a member, or a member removes themself (leaves). Anyone else: NOT_FOUND. */
  async removeMember(callerId: string, seriesId: string, accountId: string): Promise<void> {
    const row = await this.db.selectFrom('series').select('ownerId').where('id', '=', seriesId).executeTakeFirst();
    const isMember = async (who: string) =>
      (await this.db
        .selectFrom('member')
        .select('accountId')
        .where('seriesId', '=', seriesId)
        .where('accountId', '=', who)
        .executeTakeFirst()) !== undefined;
    if (!row) throw seriesNotFound();
    const allowed = row.ownerId === callerId || (callerId === accountId && (await isMember(callerId)));
    if (!allowed) throw seriesNotFound();
    const r = await this.db
      .deleteFrom('member')
      .where('seriesId', '=', seriesId)
      .where('accountId', '=', accountId)
      .executeTakeFirst();
    if (Number(r.numDeletedRows) === 0) throw new ApiError('NOT_FOUND', 'That account is not a member of this series.');
  }

  async emailList(ownerId: string, seriesId: string): Promise<string[]> {
    return (await this.owned(ownerId, seriesId)).emailList;
  }

  /** Replaces the email list: trimmed, lower-cased, each address once, in the given order. */
  async replaceEmailList(ownerId: string, seriesId: string, emails: string[]): Promise<string[]> {
    const list = [...new Set(emails.map((e) => e.trim().toLowerCase()))];
    const row = await this.db
      .updateTable('series')
      .set({ emailList: list, updatedAt: sql<Date>`now()` })
      .where('id', '=', seriesId)
      .where('ownerId', '=', ownerId)
      .returning('emailList')
      .executeTakeFirst();
    if (!row) throw seriesNotFound();
    return row.emailList;
  }

  /**
   * Deletes an owned series with its members and invites; its meetings stay the owner's, out of
   * any series. Recordings moves them out while the series' row is locked for deletion, before the
   * deletion commits: if recordings does not answer, nothing is deleted (the person tries again);
   * if the commit fails after, the meetings are out of a series that still exists, and deleting
   * it again finishes the work (both steps are idempotent).
   */
  async deleteSeries(ownerId: string, seriesId: string): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      const r = await trx
        .deleteFrom('series')
        .where('id', '=', seriesId)
        .where('ownerId', '=', ownerId)
        .executeTakeFirst();
      if (Number(r.numDeletedRows) === 0) throw seriesNotFound();
      await this.meetings.seriesDeleted(seriesId);
    });
  }
}
