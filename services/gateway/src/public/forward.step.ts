import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Logger } from 'pino';
import type { RouteDef } from '@mm/contract';
import type { ResolvedToken } from '../db/access.repository';
import type { PrincipalSigner } from '../services/principals';
import { forward } from '../services/proxy';
import { API_PREFIX, type TableRoute } from './match.step';
import type { Passage } from './replay.step';

export interface ForwardDeps {
  signer: PrincipalSigner;
  serviceUrls: Record<RouteDef['service'], string>;
  /** A service's Unix socket, forwarded to instead of its URL (LOCAL_SOCKET_DIR: one machine). */
  serviceSockets: Partial<Record<RouteDef['service'], string>>;
  logger: Logger;
}

export interface Forwarding {
  route: TableRoute;
  url: string;
  token: ResolvedToken;
  reqId: string;
  clientIp: string;
  passage: Passage;
}

/** Step 6, forward: to the owning service with the token's signed principal (proxy.ts, the one way out). */
export async function forwardStep(
  deps: ForwardDeps,
  req: IncomingMessage,
  res: ServerResponse,
  f: Forwarding,
): Promise<void> {
  forward(req, res, {
    target: deps.serviceUrls[f.route.def.service],
    socketPath: deps.serviceSockets[f.route.def.service],
    path: f.url.slice(API_PREFIX.length) || '/',
    principal: await deps.signer.forToken(f.token),
    reqId: f.reqId,
    clientIp: f.clientIp,
    internal: f.passage.internal,
    withoutBody: f.passage.withoutBody,
    reads: f.route.reads,
    logger: deps.logger,
  });
}
