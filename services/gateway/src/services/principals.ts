import { signPrincipal, type Principal } from '@mm/http';
import type { ResolvedToken } from '../db/access.repository';

const REUSE_MS = 20_000;

/**
 * Signs the principal forwarded with each request. One signature is reused for a token state for
 * a few seconds (the state object changes whenever the token or its account changes).
 */
export class PrincipalSigner {
  private readonly signed = new WeakMap<ResolvedToken, { jwt: string; at: number }>();
  constructor(private readonly key: Uint8Array) {}

  async forToken(t: ResolvedToken): Promise<string> {
    const hit = this.signed.get(t);
    const now = Date.now();
    if (hit && now - hit.at < REUSE_MS) return hit.jwt;
    const jwt = await signPrincipal(this.key, {
      accountId: t.accountId,
      displayName: t.displayName,
      source: 'token',
      tokenId: t.tokenId,
      tokenName: t.name,
      tokenExpiresAt: t.expiresAt ? t.expiresAt.toISOString() : null,
      scopes: [...t.scopes],
      dailyMinuteCap: t.dailyMinuteCap,
      features: t.features,
    });
    this.signed.set(t, { jwt, at: now });
    return jwt;
  }

  /** The app's principal for an account (admin API acting as the signed-in owner). */
  forApp(
    p: Omit<Principal, 'source' | 'tokenId' | 'tokenName' | 'tokenExpiresAt' | 'scopes' | 'dailyMinuteCap'>,
  ): Promise<string> {
    return signPrincipal(this.key, {
      ...p,
      source: 'app',
      tokenId: null,
      tokenName: null,
      tokenExpiresAt: null,
      scopes: [],
      dailyMinuteCap: null,
    });
  }
}
