import { Router } from 'express';
import { appPrincipalOnly, mountOperation, principalOf } from '@mm/http';
import type { SummaryShareService } from '../services/summary-share.service';

/** POST /app/recordings/{id}/summary-email: the meeting page's "email the summary" (an `app` principal only). */
export function summaryShareRoutes(deps: { summaryShare: SummaryShareService }): Router {
  const router = Router();
  mountOperation(
    router,
    'appEmailSummary',
    async ({ params, body }, { res }) => deps.summaryShare.send(principalOf(res), params.id, body.to),
    { guards: [appPrincipalOnly] },
  );
  return router;
}
