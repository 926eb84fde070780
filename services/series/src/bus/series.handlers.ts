import type { NatsConnection, Subscription } from 'nats';
import type { Logger } from 'pino';
import { serve } from '@mm/bus';
import { BUS } from '@mm/contract';
import type { SeriesService } from '../services/series.service';
import type { SeriesSharingService } from '../services/series-sharing.service';

/**
 * The series service's requests. `seriesResolve`: a series a meeting is filed in, as the account
 * reaches it (NOT_FOUND otherwise). `seriesMembersAdd`: the admin API's member join.
 * `seriesEmailList`: the email list, for the series' owner only (the app's summary email).
 */
export function serveSeries(
  nc: NatsConnection,
  series: SeriesService,
  sharing: SeriesSharingService,
  logger: Logger,
): Subscription[] {
  const onError = (err: unknown) => logger.error({ err }, 'series request failed');
  return [
    serve(nc, BUS.seriesResolve, ({ accountId, seriesId }) => series.resolve(accountId, seriesId), onError),
    serve(
      nc,
      BUS.seriesEmailList,
      async ({ accountId, seriesId }) => ({ emails: await sharing.emailList(accountId, seriesId) }),
      onError,
    ),
    serve(nc, BUS.seriesMembersAdd, ({ seriesId, accountId }) => series.addMember(seriesId, accountId), onError),
  ];
}
