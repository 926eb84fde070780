import express, { type NextFunction, type Request, type Response, type Router } from 'express';
import { ApiError, jsonBody, mountOperation, PRINCIPAL_HEADER, type Principal, type PrincipalVerifier } from '@mm/http';
import type { AccessService } from '../services/access.service';
import type { SignInService } from '../services/sign-in.service';
import type { AppTokensRepository } from '../db/app-tokens.repository';

export interface AppInternalDeps {
  access: AccessService;
  signIn: SignInService;
  tokens: AppTokensRepository;
  verifier: PrincipalVerifier;
}

/** The signed-in person of an app request, as the guard of these routes left it. */
const sessions = new WeakMap<Response, Principal & { sessionId: string }>();
function personOf(res: Response): Principal & { sessionId: string } {
  const p = sessions.get(res);
  if (!p) throw new Error('an app route ran without its session guard');
  return p;
}

/**
 * What the app (services/web) asks the gateway about the signed-in owner's own access: the
 * account, tokens, developer mode, sessions. Only an `app` principal made from a session (which
 * the gateway alone signs) is taken; every operation acts on that principal's account alone.
 * The operations are the contract's app table's (`appGetAccess`…), mounted at their paths.
 */
export function appInternalRouter(deps: AppInternalDeps): Router {
  const router = express.Router();
  const signedIn = (req: Request, res: Response, next: NextFunction) => {
    deps.verifier
      .verify(req.headers[PRINCIPAL_HEADER] as string | undefined)
      .then((p) => {
        const sessionId = p.sessionId;
        if (p.source !== 'app' || !sessionId)
          throw new ApiError('TOKEN_NOT_ACCEPTED', 'Only the app, for a signed-in person.');
        res.locals.principal = p;
        sessions.set(res, { ...p, sessionId });
        next();
      })
      .catch(next);
  };
  router.use('/internal/app', signedIn, jsonBody('16kb'));

  mountOperation(router, 'appGetAccess', async (_i, { res }) => ({
    account: await deps.access.getAccount(personOf(res).accountId),
  }));
  mountOperation(router, 'appSetDeveloperMode', async ({ body }, { res }) => {
    const account = await deps.access.updateAccount(personOf(res).accountId, { developerMode: body.on });
    return { developerMode: account.developerMode };
  });
  mountOperation(router, 'appUpdateProfile', async ({ body }, { res }) => {
    // Kept as the admin API keeps it (trimmed, blank is null: access.service.ts).
    return {
      account: await deps.access.updateAccount(personOf(res).accountId, { displayName: body.displayName ?? null }),
    };
  });
  mountOperation(router, 'appListTokens', async (_i, { res }) => ({
    tokens: await deps.tokens.listActive(personOf(res).accountId),
  }));
  mountOperation(router, 'appCreateToken', async ({ body }, { res }) =>
    deps.access.createToken(personOf(res).accountId, body),
  );
  mountOperation(router, 'appRevokeToken', async ({ params }, { res }) => {
    if (!(await deps.tokens.owns(personOf(res).accountId, params.id)))
      throw new ApiError('NOT_FOUND', 'No such token.');
    return deps.access.revokeToken(params.id);
  });
  mountOperation(router, 'appListSessions', async (_i, { res }) => {
    const p = personOf(res);
    return { sessions: await deps.signIn.listSessions(p.accountId, p.sessionId) };
  });
  return router;
}
