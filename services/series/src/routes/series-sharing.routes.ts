import { Router } from 'express';
import { appPrincipalOnly, mountOperation, principalOf } from '@mm/http';
import type { SeriesSharingService } from '../services/series-sharing.service';
import { seriesFeatureOn } from './series-guards';

/**
 * The app's series sharing (APP_INTERNAL_ROUTES): invites, members, the email list and deletion.
 * Only an `app` principal reaches them; while series are off they are 404 like every series route.
 */
export function seriesSharingRoutes(deps: { sharing: SeriesSharingService; appUrl: string }): Router {
  const router = Router();
  const guards = [appPrincipalOnly, seriesFeatureOn];
  const who = (res: Parameters<typeof principalOf>[0]) => principalOf(res).accountId;

  mountOperation(
    router,
    'appCreateSeriesInvite',
    async ({ params }, { res }) => {
      const { secret, expiresAt } = await deps.sharing.createInvite(who(res), params.id);
      return {
        invite: {
          id: secret,
          seriesId: params.id,
          url: `${deps.appUrl}/series-invites/${secret}`,
          expiresAt: expiresAt.toISOString(),
        },
      };
    },
    { guards },
  );
  mountOperation(
    router,
    'appReadSeriesInvite',
    async ({ params }, { res }) => ({ invite: await deps.sharing.readInvite(who(res), params.id) }),
    { guards },
  );
  mountOperation(
    router,
    'appAcceptSeriesInvite',
    async ({ params }, { res }) => deps.sharing.acceptInvite(who(res), principalOf(res).displayName, params.id),
    { guards },
  );
  mountOperation(
    router,
    'appListSeriesMembers',
    async ({ params }, { res }) => deps.sharing.members(who(res), params.id),
    { guards },
  );
  mountOperation(
    router,
    'appRemoveSeriesMember',
    async ({ params }, { res }) => {
      await deps.sharing.removeMember(who(res), params.id, params.accountId);
      return { seriesId: params.id, accountId: params.accountId, removed: true as const };
    },
    { guards },
  );
  mountOperation(
    router,
    'appGetSeriesEmailList',
    async ({ params }, { res }) => ({ emails: await deps.sharing.emailList(who(res), params.id) }),
    { guards },
  );
  mountOperation(
    router,
    'appReplaceSeriesEmailList',
    async ({ params, body }, { res }) => ({
      emails: await deps.sharing.replaceEmailList(who(res), params.id, body.emails ?? []),
    }),
    { guards },
  );
  mountOperation(
    router,
    'appDeleteSeries',
    async ({ params }, { res }) => {
      await deps.sharing.deleteSeries(who(res), params.id);
      return { id: params.id, deleted: true as const };
    },
    { guards },
  );
  return router;
}
