import { Router } from 'express';
import { appPrincipalOnly, mountForwarded, principalOf } from '@mm/http';
import type { UseCases } from '../usecases';
import { submitReader, type UploadDeps } from './upload';

/**
 * What the app does to meetings; reached through the gateway's admin API (which checks each
 * request against the contract's admin table and forwards it here, to the table's `forward`
 * path) or from the app itself, with an app principal. Each is mounted by its operationId.
 */
export function adminRoutes(deps: UploadDeps & { useCases: UseCases }): Router {
  const { admin, naming, retry } = deps.useCases;
  const router = Router();
  const guards = [appPrincipalOnly];
  const submit = submitReader(deps, 'upload');
  mountForwarded(
    router,
    'adminSubmitRecording',
    async (_input, { req, res }) => ({ recording: deps.views.submitResult(await submit(req, res)) }),
    { guards },
  );
  mountForwarded(
    router,
    'adminDeleteRecording',
    async ({ params }, { res }) => admin.remove(principalOf(res), params.id),
    {
      guards,
    },
  );
  mountForwarded(
    router,
    'adminRestoreRecording',
    async ({ params }, { res }) => ({
      id: (await admin.restore(principalOf(res), params.id)).id,
      restored: true as const,
    }),
    { guards },
  );
  mountForwarded(
    router,
    'adminUpdateRecording',
    async ({ params, body }, { res }) => {
      const r = await admin.patch(principalOf(res), params.id, body);
      return { id: r.id, title: r.title, seriesId: r.seriesId };
    },
    { guards },
  );
  mountForwarded(
    router,
    'adminNameSpeakers',
    async ({ params, body }, { res }) => {
      const r = await naming.nameSpeakers(principalOf(res), params.id, body.names);
      return { id: r.id, status: r.status };
    },
    { guards },
  );
  mountForwarded(
    router,
    'adminEditSegment',
    async ({ params, body }, { res }) => {
      const index = Number(params.index);
      const r = await admin.editSegment(principalOf(res), params.id, index, body.text);
      return { id: r.id, index };
    },
    { guards },
  );
  mountForwarded(
    router,
    'adminRegenerateDigest',
    async ({ params }, { res }) => {
      const r = await admin.regenerate(principalOf(res), params.id);
      return { id: r.id, status: r.status };
    },
    { guards },
  );
  mountForwarded(
    router,
    'adminRecheckRecording',
    async ({ params }, { res }) => {
      const r = await retry.recheck(principalOf(res), params.id);
      return { id: r.id, status: r.status };
    },
    { guards },
  );
  return router;
}
