import type { IncomingMessage, ServerResponse } from 'node:http';
import { APP_ONLY_ROUTES, CORS_ORIGIN_HEADER, ROUTES, RouteMatcher, apiOrigin, buildOpenApi } from '@mm/contract';
import type { RouteDef } from '@mm/contract';
import { closeAfterEarlyAnswer, writeNotFound, type RequestFacts } from '@mm/http';
import type { ForwardOptions, ReadPipelines } from '../services/proxy';

export const API_PREFIX = '/api/v1';

/** A route of the table, decided once: how its reads travel. */
export interface TableRoute {
  appOnly: false;
  def: RouteDef;
  reads: NonNullable<ForwardOptions['reads']>;
}

/** A matched request: its route (or an app-only one, which takes no token) and its URL. */
export interface Matched {
  route: TableRoute | { appOnly: true };
  url: string;
}

export interface MatchDeps {
  publicBaseUrl: string;
  /** Where reads go (pipelined to the owning service; proxy.ts). */
  reads: ReadPipelines;
}

export type Match = (req: IncomingMessage, res: ServerResponse, facts: RequestFacts) => Matched | null;

/**
 * Step 1, match: the request's route in the table, or the OpenAPI document, or a plain 404 (null:
 * answered). The route table drives everything after it.
 */
export function matchStep(deps: MatchDeps): Match {
  const matcher = new RouteMatcher<Matched['route']>([
    // Reads of the read class are quick for the service (a row, a keyset page, one meeting's
    // bundle): they may queue behind each other on a pipelined connection (a slow client holds
    // none of them: proxy.ts); searches and price quotes go on connections of their own, so no
    // quick read waits behind one. Decided once per route.
    ...ROUTES.map((def) => {
      const reads = { pipelines: deps.reads, pipelined: def.rateClass === 'read' };
      const route: TableRoute = { appOnly: false, def, reads };
      return { method: def.method, path: def.path, route };
    }),
    ...APP_ONLY_ROUTES.map((r) => ({ method: r.method, path: r.path, route: { appOnly: true as const } })),
  ]);
  const openapi = JSON.stringify(buildOpenApi({ serverUrl: `${deps.publicBaseUrl}${API_PREFIX}` }));
  // CORS: only pages of the service's own origin may read an answer; no preflight is answered.
  const corsOrigin = apiOrigin(`${deps.publicBaseUrl}${API_PREFIX}`);

  return (req, res, facts) => {
    res.setHeader(CORS_ORIGIN_HEADER, corsOrigin);
    const url = req.url ?? '/';
    const q = url.indexOf('?');
    const path = (q === -1 ? url : url.slice(0, q)).slice(API_PREFIX.length) || '/';
    if (path === '/openapi.json' && req.method === 'GET') {
      facts.route = 'openapi';
      res.writeHead(200, { 'content-type': 'application/json; charset=utf-8' });
      res.end(openapi);
      return null;
    }
    const found = matcher.match(req.method ?? 'GET', path);
    if (!found || 'methodMismatch' in found) {
      closeAfterEarlyAnswer(req, res);
      writeNotFound(res);
      return null;
    }
    facts.route = found.route.appOnly ? 'app-only' : found.route.def.operationId;
    return { route: found.route, url };
  };
}
