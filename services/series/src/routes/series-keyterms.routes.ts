import { Router } from 'express';
import { inputOf, principalOf, sendOk, validateOperation } from '@mm/http';
import type { SeriesService } from '../services/series.service';
import { rulesFirst, seriesFeatureOn } from './series-guards';

/** GET and PUT /series/{id}/keyterms: owner only, any other series is 404. */
export function seriesKeytermsRoutes(deps: { series: SeriesService }): Router {
  const router = Router();
  router.get('/series/:id/keyterms', seriesFeatureOn, validateOperation('getSeriesKeyterms'), async (_req, res) => {
    const row = await deps.series.owned(principalOf(res).accountId, inputOf(res).params.id);
    sendOk(res, { keyterms: row.keyterms, inheritAccountKeyterms: row.inheritAccountKeyterms });
  });
  router.put('/series/:id/keyterms', seriesFeatureOn, rulesFirst, validateOperation('replaceSeriesKeyterms'), async (_req, res) => {
    const { params, body } = inputOf(res);
    const { keyterms, inheritAccountKeyterms } = body as { keyterms: unknown[]; inheritAccountKeyterms: boolean };
    const row = await deps.series.replaceKeyterms(principalOf(res).accountId, params.id, keyterms, inheritAccountKeyterms);
    sendOk(res, { keyterms: row.keyterms, inheritAccountKeyterms: row.inheritAccountKeyterms });
  });
  return router;
}
