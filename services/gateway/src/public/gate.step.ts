import type { IncomingMessage } from 'node:http';
import { APP_SESSION_COOKIE } from '@mm/contract';
import { ApiError, parseBearer } from '@mm/http';
import { hashToken, isWellFormedToken } from '../domain/token-value';
import type { AccessGate, GateResult } from '../services/access-gate';
import type { ClientAddresses } from '../services/client-addresses';
import type { Matched, TableRoute } from './match.step';
import { rateLimited, refusal } from './refusal';

export interface GateDeps {
  gate: AccessGate;
  tokenHashKey: string;
  addresses: ClientAddresses;
}

export interface Gated {
  route: TableRoute;
  gate: GateResult;
}

/**
 * The Authorization header sent more than once: node keeps the first and drops the rest, so two
 * proxies (or a proxy and this gateway) could each act on a different token. No credential is
 * read from such a request.
 */
function authorizationRepeated(req: IncomingMessage): boolean {
  const raw = req.rawHeaders;
  let sent = 0;
  for (let i = 0; i < raw.length; i += 2) {
    if (raw[i].length === 13 && raw[i].toLowerCase() === 'authorization' && ++sent > 1) return true;
  }
  return false;
}

function hasSessionCookie(req: IncomingMessage): boolean {
  const cookie = req.headers.cookie;
  return !!cookie && cookie.split(';').some((c) => c.trim().startsWith(`${APP_SESSION_COOKIE}=`));
}

/**
 * Step 2, gate: the credential, then the one Redis round trip of the request (access-gate.ts).
 * UNAUTHORIZED without a bearer, or with the header sent twice (TOKEN_REQUIRED for whoami from a
 * signed-in browser), TOKEN_NOT_ACCEPTED on an app-only route; the bearer's keyed hash (none for one that is not a well-formed token) is
 * counted against the token's class budget and the address's. Junk (a malformed bearer, or one no
 * token has) from an address over its junk budget is refused here, before anything else is looked at.
 */
export async function gateStep(deps: GateDeps, req: IncomingMessage, m: Matched, clientIp: string): Promise<Gated> {
  const auth = req.headers.authorization;
  const value = parseBearer(auth);
  const route = m.route;
  if (!value) {
    const fromBrowser = !auth && !route.appOnly && route.def.operationId === 'whoami' && hasSessionCookie(req);
    throw refusal(fromBrowser ? 'TOKEN_REQUIRED' : 'UNAUTHORIZED');
  }
  if (route.appOnly) throw refusal('TOKEN_NOT_ACCEPTED');
  if (authorizationRepeated(req)) throw new ApiError('UNAUTHORIZED', 'Authorization sent more than once; send one.');
  const hash = isWellFormedToken(value) ? hashToken(deps.tokenHashKey, value) : null;
  const gate = await deps.gate.check(hash, route.def.rateClass, deps.addresses.budgetKey(clientIp));
  if (gate.junkLimited) throw await rateLimited(gate);
  return { route, gate };
}
