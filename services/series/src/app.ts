import type { Express } from 'express';
import type { Logger } from 'pino';
import { createServiceApp, finishApp, PrincipalVerifier } from '@mm/http';
import type { SeriesConfig } from './config';
import type { SeriesService } from './services/series.service';
import { seriesRoutes } from './routes/series.routes';
import { seriesKeytermsRoutes } from './routes/series-keyterms.routes';
import { seriesSharingRoutes } from './routes/series-sharing.routes';
import type { SeriesSharingService } from './services/series-sharing.service';

export interface SeriesDeps {
  config: SeriesConfig;
  series: SeriesService;
  sharing: SeriesSharingService;
  verifier: PrincipalVerifier;
  logger: Logger;
  ready: () => Promise<boolean>;
}

/** The series service's express app (reached only through the gateway). */
export function createApp(deps: SeriesDeps): Express {
  const app = createServiceApp({ name: 'series', logger: deps.logger, ready: deps.ready, verifier: deps.verifier });
  app.use(
    seriesRoutes({
      series: deps.series,
      urls: { appUrl: deps.config.appUrl, publicBaseUrl: deps.config.publicBaseUrl },
    }),
  );
  app.use(seriesKeytermsRoutes({ series: deps.series }));
  app.use(seriesSharingRoutes({ sharing: deps.sharing, appUrl: deps.config.appUrl }));
  return finishApp(app, deps.logger);
}
