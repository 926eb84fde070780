import { Router, type NextFunction, type Request, type Response } from 'express';
import { ApiError, principalOf } from '@mm/http';
import type { UseCases } from '../usecases';
import { submitReader, type UploadDeps } from './upload';

const wrap =
  (fn: (req: Request, res: Response) => Promise<void>) => (req: Request, res: Response, next: NextFunction) =>
    fn(req, res).catch(next);

/** What the app does to meetings; reached only through the gateway's admin API, with an app principal. */
export function adminRoutes(deps: UploadDeps & { useCases: UseCases }): Router {
  const { admin, naming, retry } = deps.useCases;
  const router = Router();
  router.use((_req, res, next) => {
    if (principalOf(res).source !== 'app')
      return next(new ApiError('TOKEN_NOT_ACCEPTED', 'This route does not take API tokens.'));
    next();
  });
  const submit = submitReader(deps, 'upload');
  router.post(
    '/internal/admin/recordings',
    wrap(async (req, res) => {
      res.status(202).json({ schemaVersion: 1, recording: deps.views.submitResult(await submit(req, res)) });
    }),
  );
  router.delete(
    '/internal/admin/recordings/:id',
    wrap(async (req, res) => {
      res.json(await admin.remove(principalOf(res), String(req.params.id)));
    }),
  );
  router.post(
    '/internal/admin/recordings/:id/restore',
    wrap(async (req, res) => {
      res.json({ id: (await admin.restore(principalOf(res), String(req.params.id))).id, restored: true });
    }),
  );
  router.patch(
    '/internal/admin/recordings/:id',
    wrap(async (req, res) => {
      const body = (req.body ?? {}) as { title?: unknown; seriesId?: unknown };
      for (const k of Object.keys(body))
        if (k !== 'title' && k !== 'seriesId') throw new ApiError('VALIDATION', `${k} is not allowed`);
      if (
        body.title !== undefined &&
        body.title !== null &&
        (typeof body.title !== 'string' || body.title.length > 200)
      )
        throw new ApiError('VALIDATION', 'title must be a string of at most 200 characters');
      if (body.seriesId !== undefined && body.seriesId !== null && typeof body.seriesId !== 'string')
        throw new ApiError('VALIDATION', 'seriesId must be a string or null');
      const r = await admin.patch(
        principalOf(res),
        String(req.params.id),
        body as { title?: string | null; seriesId?: string | null },
      );
      res.json({ id: r.id, title: r.title, seriesId: r.seriesId });
    }),
  );
  router.put(
    '/internal/admin/recordings/:id/speakers',
    wrap(async (req, res) => {
      const names = (req.body as { names?: unknown })?.names;
      if (!names || typeof names !== 'object' || Object.values(names).some((v) => typeof v !== 'string'))
        throw new ApiError('VALIDATION', 'names must map speaker labels to names');
      const r = await naming.nameSpeakers(principalOf(res), String(req.params.id), names as Record<string, string>);
      res.json({ id: r.id, status: r.status });
    }),
  );
  router.patch(
    '/internal/admin/recordings/:id/transcript/segments/:index',
    wrap(async (req, res) => {
      const text = (req.body as { text?: unknown })?.text;
      const index = Number(req.params.index);
      if (typeof text !== 'string' || !text.trim() || !Number.isInteger(index) || index < 0)
        throw new ApiError('VALIDATION', 'text must be a non-empty string and index a segment number');
      const r = await admin.editSegment(principalOf(res), String(req.params.id), index, text);
      res.json({ id: r.id, index });
    }),
  );
  router.post(
    '/internal/admin/recordings/:id/regenerate',
    wrap(async (req, res) => {
      const r = await admin.regenerate(principalOf(res), String(req.params.id));
      res.json({ id: r.id, status: r.status });
    }),
  );
  router.post(
    '/internal/admin/recordings/:id/recheck',
    wrap(async (req, res) => {
      const r = await retry.recheck(principalOf(res), String(req.params.id));
      res.json({ id: r.id, status: r.status });
    }),
  );
  return router;
}
