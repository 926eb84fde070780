import { Router, type NextFunction, type Request, type Response } from 'express';
import { ApiError, inputOf, principalOf, sendOk, validateOperation } from '@mm/http';
import type { MeetingsService } from '../services/meetings.service';
import type { SearchService } from '../services/search.service';
import type { UseCases } from '../usecases';
import { submitHandler, type UploadDeps } from './upload';

const wrap = (fn: (req: Request, res: Response) => Promise<void>) => (req: Request, res: Response, next: NextFunction) => fn(req, res).catch(next);

/** The public meeting routes (through the gateway). */
export function recordingsRoutes(deps: UploadDeps & { meetings: MeetingsService; search: SearchService; useCases: UseCases }): Router {
  const router = Router();
  const m = deps.meetings;

  router.post('/recordings', validateOperation('submitRecording'), submitHandler(deps, 'api'));

  router.get('/recordings/ready', validateOperation('listReadyRecordings'), wrap(async (_req, res) => {
    sendOk(res, await m.listReady(principalOf(res), inputOf(res).query as never));
  }));

  router.get('/recordings/search', validateOperation('searchRecordings'), wrap(async (_req, res) => {
    sendOk(res, await deps.search.search(principalOf(res), inputOf(res).query as never));
  }));

  router.get('/recordings/:id/status', validateOperation('getRecordingStatus'), wrap(async (_req, res) => {
    sendOk(res, await m.status(principalOf(res), inputOf(res).params.id));
  }));

  router.get('/recordings/:id/bundle', validateOperation('getRecordingBundle'), wrap(async (_req, res) => {
    try {
      const b = await m.bundle(principalOf(res), inputOf(res).params.id);
      if (inputOf(res).query.format === 'markdown') res.type('text/markdown; charset=utf-8').send(b.markdown);
      else sendOk(res, b.json);
    } catch (err) {
      const status = (err as { notReadyStatus?: string }).notReadyStatus;
      if (err instanceof ApiError && err.code === 'NOT_READY' && status) {
        // The bundle's NOT_READY keeps its older shape: details beside error.
        res.status(409).json({ error: { code: 'NOT_READY', message: err.message }, details: { status } });
        return;
      }
      throw err;
    }
  }));

  router.post('/recordings/:id/naming', validateOperation('skipRecordingNaming'), wrap(async (_req, res) => {
    sendOk(res, deps.views.status(await deps.useCases.naming.skip(principalOf(res), inputOf(res).params.id)));
  }));

  router.post('/recordings/:id/retry', validateOperation('retryRecording'), wrap(async (_req, res) => {
    const r = await deps.useCases.retry.retry(principalOf(res), inputOf(res).params.id);
    sendOk(res, deps.views.status(r, await m.digestTitle(r.id)));
  }));
  return router;
}
