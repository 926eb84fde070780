import { SignJWT, jwtVerify } from 'jose';
import type { Scope } from '@mm/contract';
import { ApiError } from './errors';

/** Header the gateway puts the signed principal in; stripped from every incoming request. */
export const PRINCIPAL_HEADER = 'x-mm-principal';

/**
 * Set by the gateway (never by a client: every incoming x-mm-* header is stripped) on a spending
 * request over its rate budget that carries an Idempotency-Key. Its value is the Retry-After in
 * seconds. The service answers the request only if it is a replay (contract: "a replay is answered
 * even when a limit is reached"), and 429 RATE_LIMITED with that Retry-After otherwise.
 */
export const REPLAY_ONLY_HEADER = 'x-mm-replay-only';

/** RATE_LIMITED's message, from the gateway's own refusals and from a service's replay-only one alike. */
export const RATE_LIMITED_MESSAGE = 'Too many requests; wait Retry-After seconds.';

/** The refusal a replay-only request gets when it is not a replay (the same as the gateway's own). */
export function replayOnlyRefusal(retryAfter: string): never {
  throw new ApiError('RATE_LIMITED', RATE_LIMITED_MESSAGE, undefined, {
    'Retry-After': /^\d+$/.test(retryAfter) ? retryAfter : '1',
  });
}

/** Who is calling, as the gateway vouches for it. Services trust only this. */
export interface Principal {
  accountId: string;
  displayName: string | null;
  /** `token` for an API token, `app` for the web app (admin API acting as the app). */
  source: 'token' | 'app';
  tokenId: string | null;
  tokenName: string | null;
  tokenExpiresAt: string | null;
  scopes: Scope[];
  dailyMinuteCap: number | null;
  /** Account features the admin API can switch off. */
  features: { series: boolean; ask: boolean; videoUpload: boolean; memory: boolean };
  /** The app's sign-in session behind an `app` principal made from a session cookie (absent otherwise). */
  sessionId?: string | null;
}

const ISSUER = 'mm-gateway';
const AUDIENCE = 'mm-services';
/** A principal lives for a minute: long enough for one request, short enough to be useless if leaked. */
export const PRINCIPAL_TTL_SECONDS = 60;

export function principalKey(secret: string): Uint8Array {
  return new TextEncoder().encode(secret);
}

export async function signPrincipal(key: Uint8Array, p: Principal): Promise<string> {
  return new SignJWT({ p })
    .setProtectedHeader({ alg: 'HS256' })
    .setIssuer(ISSUER)
    .setAudience(AUDIENCE)
    .setIssuedAt()
    .setExpirationTime(`${PRINCIPAL_TTL_SECONDS}s`)
    .sign(key);
}

/** How long one signature of a principal is reused: it then still has 40 of its 60 seconds. */
export const PRINCIPAL_REUSE_MS = 20_000;

/**
 * Signatures reused per object for a while (PRINCIPAL_REUSE_MS): the object stands for one
 * principal's state (the gateway's token state, a verified caller a service passes on), and a new
 * object is a new state, signed afresh. A reused signature costs neither its signer an HMAC nor,
 * since the verifier remembers the signatures it checked, the service that receives it.
 */
export class ReusedSignatures<T extends object> {
  private readonly signed = new WeakMap<T, { jwt: string; at: number }>();
  constructor(private readonly key: Uint8Array) {}

  async sign(holder: T, principal: (holder: T) => Principal): Promise<string> {
    const hit = this.signed.get(holder);
    const now = Date.now();
    if (hit && now - hit.at < PRINCIPAL_REUSE_MS) return hit.jwt;
    const jwt = await signPrincipal(this.key, principal(holder));
    this.signed.set(holder, { jwt, at: now });
    return jwt;
  }
}

/**
 * Verifies principals, remembering recent ones: the gateway reuses one signed principal
 * per token for a few seconds, so most requests skip the HMAC.
 */
export class PrincipalVerifier {
  private readonly cache = new Map<string, { p: Principal; exp: number }>();
  constructor(private readonly key: Uint8Array) {}

  async verify(jwt: string | undefined): Promise<Principal> {
    if (!jwt) throw new ApiError('UNAUTHORIZED', 'No principal: requests reach services only through the gateway.');
    const now = Date.now() / 1000;
    const hit = this.cache.get(jwt);
    if (hit && hit.exp > now) return hit.p;
    try {
      const { payload } = await jwtVerify(jwt, this.key, { issuer: ISSUER, audience: AUDIENCE, algorithms: ['HS256'] });
      const p = payload.p as Principal;
      if (this.cache.size > 10_000) this.cache.clear();
      this.cache.set(jwt, { p, exp: payload.exp ?? now });
      return p;
    } catch {
      throw new ApiError('UNAUTHORIZED', 'Principal rejected.');
    }
  }
}

export function hasScope(p: Principal, ...scopes: Scope[]): boolean {
  return scopes.some((s) => p.scopes.includes(s));
}
