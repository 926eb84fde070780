import { Router } from 'express';
import type { Request } from 'express';
import { inputOf, principalOf, REPLAY_ONLY_HEADER, sendOk, validateOperation } from '@mm/http';
import type { AskBody, AskService } from '../services/ask.service';

const replayOnlyOf = (req: Request): string | undefined => {
  const v = req.headers[REPLAY_ONLY_HEADER];
  return typeof v === 'string' ? v : undefined;
};

/** Ask quotes and questions, for one meeting and for a series. */
export function askRoutes(deps: { asks: AskService }): Router {
  const router = Router();
  const { asks } = deps;

  router.get('/recordings/:id/ask/quote', validateOperation('quoteRecordingAsk'), async (_req, res) => {
    sendOk(res, await asks.quoteRecording(principalOf(res), inputOf(res).params.id));
  });

  router.post('/recordings/:id/ask', validateOperation('askRecording'), async (req, res) => {
    const input = inputOf(res);
    const answer = await asks.askRecording(principalOf(res), input.params.id, input.body as unknown as AskBody, req.headers['idempotency-key'], replayOnlyOf(req));
    res.status(200).json(answer);
  });

  router.get('/series/:id/ask/quote', validateOperation('quoteSeriesAsk'), async (_req, res) => {
    sendOk(res, await asks.quoteSeries(principalOf(res), inputOf(res).params.id));
  });

  router.post('/series/:id/ask', validateOperation('askSeries'), async (req, res) => {
    const input = inputOf(res);
    const answer = await asks.askSeries(principalOf(res), input.params.id, input.body as unknown as AskBody, req.headers['idempotency-key'], replayOnlyOf(req));
    res.status(200).json(answer);
  });

  return router;
}
