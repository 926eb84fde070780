import { Router } from 'express';
import { ANSWERED, ApiError, mountOperation, principalOf, sendOk } from '@mm/http';
import type { MeetingsService } from '../services/meetings.service';
import type { SearchService } from '../services/search.service';
import type { UseCases } from '../usecases';
import { submitReader, type UploadDeps } from './upload';

/** The public meeting routes (through the gateway), mounted by operationId from the contract's table. */
export function recordingsRoutes(
  deps: UploadDeps & { meetings: MeetingsService; search: SearchService; useCases: UseCases },
): Router {
  const router = Router();
  const m = deps.meetings;

  const submit = submitReader(deps, 'api');
  mountOperation(router, 'submitRecording', async (_input, { req, res }) => ({
    recording: deps.views.submitResult(await submit(req, res)),
  }));

  mountOperation(router, 'listReadyRecordings', async ({ query }, { res }) => m.listReady(principalOf(res), query));

  mountOperation(router, 'searchRecordings', async ({ query }, { res }) => deps.search.search(principalOf(res), query));

  mountOperation(router, 'getRecordingStatus', async ({ params }, { res }) => m.status(principalOf(res), params.id));

  mountOperation(router, 'getRecordingBundle', async ({ params, query }, { res }) => {
    try {
      const b = await m.bundle(principalOf(res), params.id);
      if (query.format === 'markdown') return { contentType: 'text/markdown', text: b.markdown() };
      // The digest's sections and the stats are sent as the pipeline wrote them: not typed
      // against the generated output (that needs a checked mapping of the stored JSON).
      sendOk(res, b.json);
      return ANSWERED;
    } catch (err) {
      const status = (err as { notReadyStatus?: string }).notReadyStatus;
      if (!(err instanceof ApiError && err.code === 'NOT_READY' && status)) throw err;
      // The bundle's NOT_READY keeps its older shape: details beside error.
      res.status(409).json({ error: { code: 'NOT_READY', message: err.message }, details: { status } });
      return ANSWERED;
    }
  });

  mountOperation(router, 'skipRecordingNaming', async ({ params }, { res }) =>
    deps.views.status(await deps.useCases.naming.skip(principalOf(res), params.id)),
  );

  // The Ask quotes: counted here, beside the documents, and priced by the contract's rule (usecases/ask-quotes.ts).
  mountOperation(router, 'quoteRecordingAsk', async ({ params }, { res }) =>
    deps.useCases.askQuotes.meeting(principalOf(res), params.id),
  );
  mountOperation(router, 'quoteSeriesAsk', async ({ params }, { res }) =>
    deps.useCases.askQuotes.series(principalOf(res), params.id),
  );

  mountOperation(router, 'retryRecording', async ({ params }, { res }) => {
    const r = await deps.useCases.retry.retry(principalOf(res), params.id);
    return deps.views.status(r, await m.digestTitle(r.id));
  });
  return router;
}
