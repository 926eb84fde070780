import { Router, type NextFunction, type Request, type Response } from 'express';
import { principalOf, mountOperation } from '@mm/http';
import { checkedKeyterms, type SettingsService } from '../services/settings.service';

/**
 * Runs the term rules before the schema, so that a broken rule answers the rule's own message
 * (naming the term and the problem) rather than the schema's pattern text.
 */
export function keytermRulesFirst(req: Request, _res: Response, next: NextFunction): void {
  const body = req.body as { keyterms?: unknown } | undefined;
  try {
    if (body && typeof body === 'object' && Array.isArray(body.keyterms)) checkedKeyterms(body.keyterms);
    next();
  } catch (err) {
    next(err);
  }
}

/** GET and PUT /account/keyterms. */
export function keytermsRoutes(deps: { settings: SettingsService }): Router {
  const router = Router();
  mountOperation(router, 'getAccountKeyterms', async (_input, { res }) => ({
    keyterms: await deps.settings.keyterms(principalOf(res).accountId),
  }));
  mountOperation(
    router,
    'replaceAccountKeyterms',
    async ({ body }, { res }) => ({
      keyterms: await deps.settings.replaceKeyterms(principalOf(res).accountId, body.keyterms),
    }),
    { guards: [keytermRulesFirst] },
  );
  return router;
}
