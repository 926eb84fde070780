import type { Scope } from '@mm/contract';
import { principalKey, signPrincipal } from '@mm/http';
import { loadConfig as webConfig } from '../../services/web/src/config';
import type { Stack } from './stack';

export const ALL_FEATURES = { series: true, ask: true, videoUpload: false, memory: true };

/**
 * A principal as the gateway signs it for a stack's services: the app's (a signed-in person) or a
 * token's, to call a service's app-only routes straight, past the gateway.
 */
export async function principalFor(
  stack: Stack,
  accountId: string,
  source: 'app' | 'token',
  opts: { scopes?: Scope[]; features?: typeof ALL_FEATURES } = {},
): Promise<string> {
  return signPrincipal(principalKey(webConfig(stack.env).internalJwtSecret), {
    accountId,
    displayName: null,
    source,
    tokenId: source === 'token' ? 'tok_test' : null,
    tokenName: source === 'token' ? 'test' : null,
    tokenExpiresAt: null,
    scopes: source === 'token' ? (opts.scopes ?? []) : [],
    dailyMinuteCap: null,
    features: opts.features ?? ALL_FEATURES,
  });
}
