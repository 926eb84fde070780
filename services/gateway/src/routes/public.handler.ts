import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Logger } from 'pino';
import { closeAfterEarlyAnswer, requestObserver, writeError, type RequestFacts } from '@mm/http';
import { authenticateStep } from '../public/authenticate.step';
import { authorizeStep } from '../public/authorize.step';
import { forwardStep, type ForwardDeps } from '../public/forward.step';
import { gateStep, type GateDeps } from '../public/gate.step';
import { matchStep, type MatchDeps } from '../public/match.step';
import { replayStep } from '../public/replay.step';

export { API_PREFIX } from '../public/match.step';

export type PublicDeps = MatchDeps & GateDeps & ForwardDeps & { logger: Logger };

/**
 * The public API on plain node:http (the gateway's hot path, without express): every request
 * under /api/v1 goes through the steps of src/public in the contract's order of checks, then to
 * the owning service with a signed principal. The route table drives all of it.
 *
 * match → gate → authenticate → authorize → replay → forward
 */
export function publicHandler(deps: PublicDeps): (req: IncomingMessage, res: ServerResponse) => void {
  const match = matchStep(deps);
  const observe = requestObserver('gateway', deps.logger);

  const handle = async (req: IncomingMessage, res: ServerResponse, facts: RequestFacts): Promise<void> => {
    const m = match(req, res, facts);
    if (!m) return;
    // Read for every request, so an X-Forwarded-For no proxy setting lets us believe is noticed.
    const clientIp = deps.addresses.of(req);
    const { route, gate } = await gateStep(deps, req, m, clientIp);
    const token = authenticateStep(res, facts, route.def, gate);
    const replayOnly = await authorizeStep(req, route.def, token, gate);
    const passage = replayStep(req, route.def, m.url, replayOnly, gate);
    await forwardStep(deps, req, res, { route, url: m.url, token, reqId: facts.reqId!, clientIp, passage });
  };

  return (req, res) => {
    const facts: RequestFacts = {};
    observe(req, res, () => facts.route ?? 'unmatched', facts);
    handle(req, res, facts).catch((err: unknown) => {
      // A refusal never reads the rest of an upload it refused.
      closeAfterEarlyAnswer(req, res);
      writeError(res, err, deps.logger, facts.reqId);
    });
  };
}
