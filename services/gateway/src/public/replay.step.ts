import type { IncomingMessage } from 'node:http';
import type { RouteDef } from '@mm/contract';
import { checkUrlEncoding, REPLAY_ONLY_HEADER } from '@mm/http';
import type { GateResult } from '../services/access-gate';

/**
 * Over budget, only a replay of a spending request (its key in the Idempotency-Key header) may
 * still be answered; the owning service knows whether it is one, and otherwise answers the 429.
 * Anything else stays a refusal that costs the gateway one Redis call.
 */
export function mayReplay(req: IncomingMessage, def: RouteDef): boolean {
  return def.spends && req.headers['idempotency-key'] !== undefined;
}

/** How a request goes on to its service: its internal headers, and whether its body stays behind. */
export interface Passage {
  internal: Record<string, string> | undefined;
  withoutBody: boolean;
}

const AS_IS: Passage = { internal: undefined, withoutBody: false };

/**
 * Step 5, replay: how the request goes on. A request over budget goes replay-only, with the
 * Retry-After the service answers otherwise, and never streams its body into the service (only the
 * key is needed). A URL the owning service could only misread is refused here, once, after the
 * token checks.
 */
export function replayStep(url: string, replayOnly: boolean, gate: GateResult): Passage {
  checkUrlEncoding(url);
  if (!replayOnly) return AS_IS;
  return { internal: { [REPLAY_ONLY_HEADER]: String(gate.retryAfter) }, withoutBody: true };
}
