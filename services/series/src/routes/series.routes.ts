import { Router } from 'express';
import { inputOf, principalOf, sendOk, mountOperation } from '@mm/http';
import { NO_MEETINGS, toSeriesListItem, toSeriesView } from '../domain/series';
import type { SeriesInput, SeriesService } from '../services/series.service';
import { rulesFirst, seriesFeatureOn } from './series-guards';

export interface SeriesRouteDeps {
  series: SeriesService;
  urls: { appUrl: string; publicBaseUrl: string };
}

/** GET /series/readable, GET /series/{id}, POST /series, PATCH /series/{id}. */
export function seriesRoutes(deps: SeriesRouteDeps): Router {
  const router = Router();

  // Declared before /series/:id, which would otherwise take "readable" for an id.
  mountOperation(router, 'listReadableSeries', [], async (_req, res) => {
    const p = principalOf(res);
    // Switched off, the list is empty rather than 404: the route is the caller's way to learn there is nothing.
    const rows = p.features.series ? await deps.series.listReadable(p.accountId) : [];
    sendOk(res, { items: rows.map(({ row, role, stats }) => toSeriesListItem(row, role, stats, deps.urls)) });
  });

  mountOperation(router, 'getSeries', [seriesFeatureOn], async (_req, res) => {
    const { row, access, stats } = await deps.series.get(principalOf(res).accountId, inputOf(res).params.id);
    sendOk(res, { series: toSeriesView(row, access, stats) });
  });

  mountOperation(router, 'createSeries', [seriesFeatureOn, rulesFirst], async (_req, res) => {
    const body = inputOf(res).body as unknown as SeriesInput & { name: string };
    const row = await deps.series.create(principalOf(res).accountId, body);
    // A series just made holds no meeting: nothing to ask the recordings service.
    sendOk(res, { series: toSeriesView(row, 'owner', NO_MEETINGS) }, 201);
  });

  mountOperation(router, 'updateSeries', [seriesFeatureOn, rulesFirst], async (_req, res) => {
    const { params, body } = inputOf(res);
    const { row, stats } = await deps.series.update(principalOf(res).accountId, params.id, body as SeriesInput);
    sendOk(res, { series: toSeriesView(row, 'owner', stats) });
  });

  return router;
}
