import type { IncomingMessage } from 'node:http';
import type { RouteDef } from '@mm/contract';
import { ApiError, checkUrlEncoding, REPLAY_ONLY_HEADER } from '@mm/http';
import type { GateResult } from '../services/access-gate';

/**
 * Whether the route's JSON body may carry the key (`idempotencyKey`: the two Asks, by the route
 * table's body schema), read where the header is not sent (the header wins).
 */
function keyMayBeInBody(def: RouteDef): boolean {
  const properties = def.body?.contentType === 'application/json' ? def.body.schema.properties : undefined;
  return typeof properties === 'object' && properties !== null && 'idempotencyKey' in properties;
}

const keyInHeader = (req: IncomingMessage): boolean => req.headers['idempotency-key'] !== undefined;

/**
 * 400 VALIDATION for an Idempotency-Key header sent more than once: node joins the values with
 * ", " into one string, a key the client never chose, so its retries (one header) would not
 * replay it and the meeting or answer could be made twice.
 */
function checkOneKey(req: IncomingMessage): void {
  if (!keyInHeader(req)) return;
  const raw = req.rawHeaders;
  let sent = 0;
  for (let i = 0; i < raw.length; i += 2) if (raw[i].toLowerCase() === 'idempotency-key') sent++;
  if (sent > 1) throw new ApiError('VALIDATION', 'Idempotency-Key sent more than once; send one key.');
}

/**
 * Over budget, only a replay of a spending request (its key in the Idempotency-Key header, or in
 * the body where the route takes it there) may still be answered; the owning service knows
 * whether it is one, and otherwise answers the 429. Anything else stays a refusal that costs the
 * gateway one Redis call.
 */
export function mayReplay(req: IncomingMessage, def: RouteDef): boolean {
  return def.spends && (keyInHeader(req) || keyMayBeInBody(def));
}

/** How a request goes on to its service: its internal headers, and whether its body stays behind. */
export interface Passage {
  internal: Record<string, string> | undefined;
  withoutBody: boolean;
}

const AS_IS: Passage = { internal: undefined, withoutBody: false };

/**
 * Step 5, replay: how the request goes on. A request over budget goes replay-only, with the
 * Retry-After the service answers otherwise. Its body is not streamed into the service (only the
 * key is needed) unless the key can only be there: an Ask's small JSON body without the header. A
 * URL the owning service could only misread, and a spending request's Idempotency-Key sent twice,
 * are refused here, once, after the token checks.
 */
export function replayStep(
  req: IncomingMessage,
  def: RouteDef,
  url: string,
  replayOnly: boolean,
  gate: GateResult,
): Passage {
  checkUrlEncoding(url);
  if (def.spends) checkOneKey(req);
  if (!replayOnly) return AS_IS;
  return {
    internal: { [REPLAY_ONLY_HEADER]: String(gate.retryAfter) },
    withoutBody: keyInHeader(req) || !keyMayBeInBody(def),
  };
}
