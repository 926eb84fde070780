import express, { type NextFunction, type Request, type Response, type Router } from 'express';
import { ApiError, createAjv, describeSchemaError, jsonBody, PRINCIPAL_HEADER, type Principal, type PrincipalVerifier } from '@mm/http';
import type { AccessService, CreateTokenInput } from '../services/access.service';
import type { SignInService } from '../services/sign-in.service';
import type { AppTokensRepository } from '../db/app-tokens.repository';
import { createTokenBody } from './admin.schemas';

export interface AppInternalDeps {
  access: AccessService;
  signIn: SignInService;
  tokens: AppTokensRepository;
  verifier: PrincipalVerifier;
}

const ajv = createAjv();
const validToken = ajv.compile(createTokenBody);
const validProfile = ajv.compile({ type: 'object', properties: { displayName: { type: ['string', 'null'], maxLength: 200 } }, required: ['displayName'], additionalProperties: false });
const validMode = ajv.compile({ type: 'object', properties: { on: { type: 'boolean' } }, required: ['on'], additionalProperties: false });

/**
 * What the app (services/web) asks the gateway about the signed-in owner's own access: the
 * account, tokens, developer mode, sessions. Only an `app` principal made from a session (which
 * the gateway alone signs) is taken; every operation acts on that principal's account alone.
 */
export function appInternalRouter(deps: AppInternalDeps): Router {
  const router = express.Router();
  const wrap = (fn: (req: Request, res: Response, p: Principal & { sessionId: string }) => Promise<unknown>) =>
    (req: Request, res: Response, next: NextFunction) => {
      deps.verifier
        .verify(req.headers[PRINCIPAL_HEADER] as string | undefined)
        .then((p) => {
          if (p.source !== 'app' || !p.sessionId) throw new ApiError('TOKEN_NOT_ACCEPTED', 'Only the app, for a signed-in person.');
          res.locals.principal = p;
          return fn(req, res, p as Principal & { sessionId: string });
        })
        .then((body) => {
          if (!res.headersSent) res.json({ schemaVersion: 1, ...(body as object) });
        })
        .catch(next);
    };
  router.use(jsonBody('16kb'));

  router.get('/account', wrap(async (_req, _res, p) => ({ account: await deps.access.getAccount(p.accountId) })));
  router.put('/developer-mode', wrap(async (req, _res, p) => {
    if (!validMode(req.body)) throw new ApiError('VALIDATION', describeSchemaError('', validMode.errors![0]));
    const account = await deps.access.updateAccount(p.accountId, { developerMode: (req.body as { on: boolean }).on });
    return { developerMode: account.developerMode };
  }));
  router.patch('/profile', wrap(async (req, _res, p) => {
    if (!validProfile(req.body)) throw new ApiError('VALIDATION', describeSchemaError('', validProfile.errors![0]));
    const name = (req.body as { displayName: string | null }).displayName?.trim() || null;
    return { account: await deps.access.updateAccount(p.accountId, { displayName: name }) };
  }));
  router.get('/tokens', wrap(async (_req, _res, p) => ({ tokens: await deps.tokens.listActive(p.accountId) })));
  router.post('/tokens', wrap(async (req, res, p) => {
    if (!validToken(req.body)) throw new ApiError('VALIDATION', describeSchemaError('', validToken.errors![0]));
    res.status(201);
    return deps.access.createToken(p.accountId, req.body as unknown as CreateTokenInput);
  }));
  router.delete('/tokens/:id', wrap(async (req, _res, p) => {
    const id = String(req.params.id);
    if (!(await deps.tokens.owns(p.accountId, id))) throw new ApiError('NOT_FOUND', 'No such token.');
    return deps.access.revokeToken(id);
  }));
  router.get('/sessions', wrap(async (_req, _res, p) => ({ sessions: await deps.signIn.listSessions(p.accountId, p.sessionId) })));
  return router;
}
