import { ReusedSignatures, signPrincipal, type Principal } from '@mm/http';
import type { ResolvedToken } from '../db/access.repository';

/**
 * Signs the principal forwarded with each request. One signature is reused for a token state for
 * a few seconds (the state object changes whenever the token or its account changes).
 */
export class PrincipalSigner {
  private readonly signed: ReusedSignatures<ResolvedToken>;
  constructor(private readonly key: Uint8Array) {
    this.signed = new ReusedSignatures(key);
  }

  forToken(t: ResolvedToken): Promise<string> {
    return this.signed.sign(t, () => ({
      accountId: t.accountId,
      displayName: t.displayName,
      source: 'token',
      tokenId: t.tokenId,
      tokenName: t.name,
      tokenExpiresAt: t.expiresAt ? t.expiresAt.toISOString() : null,
      scopes: [...t.scopes],
      dailyMinuteCap: t.dailyMinuteCap,
      features: t.features,
    }));
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
