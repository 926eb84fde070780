import type { IncomingMessage } from 'node:http';
import type { RouteDef } from '@mm/contract';
import type { ResolvedToken } from '../db/access.repository';
import { authorize } from '../domain/checks';
import type { GateResult } from '../services/access-gate';
import { rateLimited, refusal } from './refusal';
import { mayReplay } from './replay.step';

/**
 * Step 4, authorize: the token's rate limit, then TOKEN_SCOPE, SCOPE_DISABLED, PENDING_APPROVAL
 * (checks.ts), the contract's order. Over budget, a request the token may make and that may be a
 * replay (replay.step.ts) is not refused here: true, it goes on replay-only.
 */
export async function authorizeStep(
  req: IncomingMessage,
  def: RouteDef,
  token: ResolvedToken,
  gate: GateResult,
): Promise<boolean> {
  const denied = authorize(token, def.scopes);
  if (gate.retryAfter !== null) {
    const limited = await rateLimited(gate);
    if (denied || !mayReplay(req, def)) throw limited;
    return true;
  }
  if (denied) throw refusal(denied);
  return false;
}
