import type { ServerResponse } from 'node:http';
import { rateLimitFields, type RouteDef } from '@mm/contract';
import type { RequestFacts } from '@mm/http';
import type { ResolvedToken } from '../db/access.repository';
import { authenticate } from '../domain/checks';
import type { GateResult } from '../services/access-gate';
import { refusal } from './refusal';

/**
 * Step 3, authenticate: TOKENS_DISABLED, TOKEN_INVALID, DEVELOPER_MODE_OFF (checks.ts). From here
 * on the request is the token's: its id is logged, and every answer (the service's own too:
 * writeHead merges these) states the token's budget.
 */
export function authenticateStep(
  res: ServerResponse,
  facts: RequestFacts,
  def: RouteDef,
  gate: GateResult,
): ResolvedToken {
  const refused = authenticate(gate.token, gate.tokensDisabled, new Date());
  if (refused) throw refusal(refused);
  const token = gate.token!;
  facts.tokenId = token.tokenId;
  if (!gate.rate) return token;
  for (const [name, value] of Object.entries(rateLimitFields(def.rateClass, gate.rate))) res.setHeader(name, value);
  return token;
}
