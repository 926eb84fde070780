import { Router } from 'express';
import { principalOf, mountOperation } from '@mm/http';
import type { SeriesService } from '../services/series.service';
import { rulesFirst, seriesFeatureOn } from './series-guards';

/** GET and PUT /series/{id}/keyterms: owner only, any other series is 404. */
export function seriesKeytermsRoutes(deps: { series: SeriesService }): Router {
  const router = Router();
  mountOperation(
    router,
    'getSeriesKeyterms',
    async ({ params }, { res }) => {
      const row = await deps.series.owned(principalOf(res).accountId, params.id);
      return { keyterms: row.keyterms, inheritAccountKeyterms: row.inheritAccountKeyterms };
    },
    { guards: [seriesFeatureOn] },
  );
  mountOperation(
    router,
    'replaceSeriesKeyterms',
    async ({ params, body }, { res }) => {
      const row = await deps.series.replaceKeyterms(
        principalOf(res).accountId,
        params.id,
        body.keyterms,
        body.inheritAccountKeyterms,
      );
      return { keyterms: row.keyterms, inheritAccountKeyterms: row.inheritAccountKeyterms };
    },
    { guards: [seriesFeatureOn, rulesFirst] },
  );
  return router;
}
