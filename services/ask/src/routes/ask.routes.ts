import { Router } from 'express';
import type { NextFunction, Request, Response } from 'express';
import { ApiError, inputOf, principalOf, REPLAY_ONLY_HEADER, sendOk, validateOperation } from '@mm/http';
import type { AskBody, AskService } from '../services/ask.service';

const replayOnlyOf = (req: Request): string | undefined => {
  const v = req.headers[REPLAY_ONLY_HEADER];
  return typeof v === 'string' ? v : undefined;
};

/** Ask quotes and questions, for one meeting and for a series. */
export function askRoutes(deps: { asks: AskService }): Router {
  const router = Router();
  const { asks } = deps;
  // Over the rate budget the gateway sends no body (only the key counts): answered before validation.
  const replayFirst = (kind: 'recording' | 'series') => async (req: Request, res: Response, next: NextFunction) => {
    const replayOnly = replayOnlyOf(req);
    if (replayOnly === undefined) return next();
    const ask = kind === 'recording' ? asks.askRecording.bind(asks) : asks.askSeries.bind(asks);
    res.status(200).json(await ask(principalOf(res), String(req.params.id), {} as AskBody, req.headers['idempotency-key'], replayOnly));
  };

  router.get('/recordings/:id/ask/quote', validateOperation('quoteRecordingAsk'), async (_req, res) => {
    sendOk(res, await asks.quoteRecording(principalOf(res), inputOf(res).params.id));
  });

  router.post('/recordings/:id/ask', replayFirst('recording'), validateOperation('askRecording'), async (req, res) => {
    const input = inputOf(res);
    const answer = await asks.askRecording(principalOf(res), input.params.id, input.body as unknown as AskBody, req.headers['idempotency-key'], replayOnlyOf(req));
    res.status(200).json(answer);
  });

  router.get('/series/:id/ask/quote', validateOperation('quoteSeriesAsk'), async (_req, res) => {
    sendOk(res, await asks.quoteSeries(principalOf(res), inputOf(res).params.id));
  });

  router.post('/series/:id/ask', replayFirst('series'), validateOperation('askSeries'), async (req, res) => {
    const input = inputOf(res);
    const answer = await asks.askSeries(principalOf(res), input.params.id, input.body as unknown as AskBody, req.headers['idempotency-key'], replayOnlyOf(req));
    res.status(200).json(answer);
  });

  // The app's Ask tab (an app principal only): the person's earlier questions and answers.
  for (const kind of ['recording', 'series'] as const) {
    router.get(`/internal/app/${kind === 'recording' ? 'recordings' : 'series'}/:id/asks`, async (req, res) => {
      const p = principalOf(res);
      if (p.source !== 'app') throw new ApiError('TOKEN_NOT_ACCEPTED', 'This route does not take API tokens.');
      res.json({ schemaVersion: 1, items: await asks.earlier(p, { kind, id: String(req.params.id) }) });
    });
  }
  return router;
}
