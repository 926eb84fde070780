import { Router } from 'express';
import { appPrincipalOnly, principalOf, mountOperation } from '@mm/http';
import { NO_MEETINGS, toSeriesListItem, toSeriesView } from '../domain/series';
import type { SeriesService } from '../services/series.service';
import { rulesFirst, seriesFeatureOn } from './series-guards';

export interface SeriesRouteDeps {
  series: SeriesService;
  urls: { appUrl: string; publicBaseUrl: string };
}

/** GET /series/readable, GET /series/{id}, POST /series, PATCH /series/{id}; the app's owned series. */
export function seriesRoutes(deps: SeriesRouteDeps): Router {
  const router = Router();

  // Declared before /series/:id, which would otherwise take "readable" for an id.
  mountOperation(router, 'listReadableSeries', async (_input, { res }) => {
    const p = principalOf(res);
    // Switched off, the list is empty rather than 404: the route is the caller's way to learn there is nothing.
    const rows = p.features.series ? await deps.series.listReadable(p.accountId) : [];
    return { items: rows.map(({ row, role, stats }) => toSeriesListItem(row, role, stats, deps.urls)) };
  });

  mountOperation(
    router,
    'getSeries',
    async ({ params }, { res }) => {
      const { row, access, stats } = await deps.series.get(principalOf(res).accountId, params.id);
      return { series: toSeriesView(row, access, stats) };
    },
    { guards: [seriesFeatureOn] },
  );

  mountOperation(
    router,
    'createSeries',
    async ({ body }, { res }) => {
      const row = await deps.series.create(principalOf(res).accountId, body);
      // A series just made holds no meeting: nothing to ask the recordings service.
      return { series: toSeriesView(row, 'owner', NO_MEETINGS) };
    },
    { guards: [seriesFeatureOn, rulesFirst] },
  );

  mountOperation(
    router,
    'updateSeries',
    async ({ params, body }, { res }) => {
      const { row, stats } = await deps.series.update(principalOf(res).accountId, params.id, body);
      return { series: toSeriesView(row, 'owner', stats) };
    },
    { guards: [seriesFeatureOn, rulesFirst] },
  );

  // The app's upload page (APP_INTERNAL_ROUTES): each owned series with the start values of its
  // meetings' digest settings, from the list's one statement and no stats request.
  mountOperation(
    router,
    'appListOwnedSeries',
    async (_input, { res }) => ({
      series: (await deps.series.listOwned(principalOf(res).accountId)).map((row) => ({
        id: row.id,
        name: row.name,
        defaultKind: row.defaultKind,
        defaultOutputLanguage: row.defaultOutputLanguage,
      })),
    }),
    { guards: [appPrincipalOnly, seriesFeatureOn] },
  );

  return router;
}
