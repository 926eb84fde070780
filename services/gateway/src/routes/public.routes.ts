import type { NextFunction, Request, Response, Router } from 'express';
import express from 'express';
import { APP_ONLY_ROUTES, APP_SESSION_COOKIE, ROUTES, RouteMatcher, buildOpenApi, type RouteDef } from '@mm/contract';
import { ApiError } from '@mm/http';
import type { Logger } from 'pino';
import { authenticate, authorize, CHECK_MESSAGES } from '../domain/checks';
import { hashToken, isWellFormedToken } from '../domain/token-value';
import type { AccessGate } from '../services/access-gate';
import type { PrincipalSigner } from '../services/principals';
import { forward } from '../services/proxy';

export interface PublicDeps {
  gate: AccessGate;
  signer: PrincipalSigner;
  tokenHashKey: string;
  publicBaseUrl: string;
  serviceUrls: Record<RouteDef['service'], string>;
  logger: Logger;
}

type Entry = { appOnly: false; def: RouteDef } | { appOnly: true };

const BEARER = /^Bearer[ ]+([^\s]+)[ ]*$/;

const fail = (code: keyof typeof CHECK_MESSAGES & string, headers?: Record<string, string>) => new ApiError(code as never, CHECK_MESSAGES[code as never] ?? code, undefined, headers);

function hasSessionCookie(req: Request): boolean {
  const cookie = req.headers.cookie;
  return !!cookie && cookie.split(';').some((c) => c.trim().startsWith(`${APP_SESSION_COOKIE}=`));
}

/**
 * The public API: every request under /api/v1 passes the contract's checks in order, then goes
 * to the owning service with a signed principal. The route table drives all of it.
 */
export function publicRouter(deps: PublicDeps): Router {
  const router = express.Router();
  const matcher = new RouteMatcher<Entry>([
    ...ROUTES.map((def) => ({ method: def.method, path: def.path, route: { appOnly: false as const, def } })),
    ...APP_ONLY_ROUTES.map((r) => ({ method: r.method, path: r.path, route: { appOnly: true as const } })),
  ]);
  const openapi = JSON.stringify(buildOpenApi({ serverUrl: `${deps.publicBaseUrl}/api/v1` }));

  router.get('/openapi.json', (_req, res) => {
    res.type('application/json').send(openapi);
  });

  router.use(async (req: Request, res: Response, next: NextFunction) => {
    try {
      const found = matcher.match(req.method, req.path);
      if (!found || 'methodMismatch' in found) {
        res.status(404).type('text/plain').send('Not Found');
        return;
      }
      const entry = found.route;
      res.locals.route = entry.appOnly ? 'app-only' : entry.def.operationId;
      const auth = req.headers.authorization;
      const bearer = auth ? BEARER.exec(auth) : null;
      if (!bearer) {
        if (!auth && !entry.appOnly && entry.def.operationId === 'whoami' && hasSessionCookie(req)) throw fail('TOKEN_REQUIRED');
        throw fail('UNAUTHORIZED');
      }
      if (entry.appOnly) throw fail('TOKEN_NOT_ACCEPTED');
      const def = entry.def;
      const value = bearer[1];
      const gate = await deps.gate.check(hashToken(deps.tokenHashKey, value), isWellFormedToken(value), def.rateClass, req.ip ?? 'unknown');
      const refused = authenticate(gate.token, gate.tokensDisabled, new Date());
      if (refused) throw fail(refused);
      const token = gate.token!;
      res.locals.tokenId = token.tokenId;
      if (gate.retryAfter !== null) throw fail('RATE_LIMITED', { 'Retry-After': String(gate.retryAfter) });
      const denied = authorize(token, def.scopes);
      if (denied) throw fail(denied);
      const principal = await deps.signer.forToken(token);
      forward(req, res, deps.serviceUrls[def.service], req.originalUrl.slice('/api/v1'.length) || '/', principal, (err) =>
        deps.logger.error({ err: String(err), service: def.service }, 'proxy error'),
      );
    } catch (err) {
      next(err);
    }
  });
  return router;
}
