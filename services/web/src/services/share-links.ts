import { createHash, createHmac, randomBytes } from 'node:crypto';
import { principalKey, signPrincipal } from '@mm/http';
import type { ShareLink, ShareLinkRepository } from '../db/share-link.repository';

/** How long a new link may live: the owner's choice. */
export const SHARE_EXPIRIES = { '1': 1, '7': 7, '30': 30, never: null } as const;
export type ShareExpiry = keyof typeof SHARE_EXPIRIES;
const SECRET = /^[A-Za-z0-9_-]{43}$/;

/**
 * Share links: a 256-bit random secret in the link, only its keyed hash stored (the key is made
 * from INTERNAL_JWT_SECRET for this one use). A live link (not revoked, not expired) lets anyone
 * holding it read one meeting: the app reads it for the link's owner with a principal it signs for
 * that account alone, for a minute, as the gateway does for a session (the app holds the same key
 * to check principals). Everything else (revoked, expired, unknown, a deleted meeting) is 404.
 */
export class ShareLinks {
  private readonly hashKey: Buffer;
  private readonly signingKey: Uint8Array;

  constructor(
    readonly repo: ShareLinkRepository,
    internalJwtSecret: string,
  ) {
    this.hashKey = createHash('sha256').update(`web share links\u0000${internalJwtSecret}`).digest();
    this.signingKey = principalKey(internalJwtSecret);
  }

  private hashOf(secret: string): string {
    return createHmac('sha256', this.hashKey).update(secret).digest('base64url');
  }

  async create(
    accountId: string,
    recordingId: string,
    includeAudio: boolean,
    expiry: ShareExpiry,
  ): Promise<{ secret: string; link: ShareLink }> {
    const secret = randomBytes(32).toString('base64url');
    const days = SHARE_EXPIRIES[expiry];
    const link = await this.repo.insert({
      id: `shr_${randomBytes(12).toString('base64url')}`,
      secretHash: this.hashOf(secret),
      accountId,
      recordingId,
      includeAudio,
      expiresAt: days === null ? null : new Date(Date.now() + days * 86_400_000),
    });
    return { secret, link };
  }

  /** The live link of a secret, with a principal of its owner to read its meeting; null otherwise. */
  async open(secret: string): Promise<{ link: ShareLink; principal: string } | null> {
    if (!SECRET.test(secret)) return null;
    const found = await this.repo.live(this.hashOf(secret));
    if (!found) return null;
    const principal = await signPrincipal(this.signingKey, {
      accountId: found.accountId,
      displayName: null,
      source: 'app',
      tokenId: null,
      tokenName: null,
      tokenExpiresAt: null,
      scopes: [],
      dailyMinuteCap: null,
      features: { series: true, ask: false, videoUpload: false, memory: false },
      sessionId: null,
    });
    return { link: found.link, principal };
  }
}
