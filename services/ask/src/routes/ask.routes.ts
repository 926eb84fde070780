import { Router } from 'express';
import type { NextFunction, Request, Response } from 'express';
import { appPrincipalOnly, mountOperation, principalOf, REPLAY_ONLY_HEADER } from '@mm/http';
import type { AskSeriesOutput } from '@mm/contract';
import type { AskAnswer, AskService } from '../services/ask.service';

/** A series' answer names each citation's meeting (the contract requires it there). */
function seriesAnswer(a: AskAnswer): AskSeriesOutput {
  return {
    ...a,
    citations: a.citations.map((c) => {
      if (c.recordingId === undefined) throw new Error('a series answer cites a turn without its meeting');
      return { ...c, recordingId: c.recordingId };
    }),
  };
}

/** Ask quotes and questions, for one meeting and for a series. */
export function askRoutes(deps: { asks: AskService }): Router {
  const router = Router();
  const { asks } = deps;
  // Over the rate budget only the key counts, answered before validation: the header's (the gateway
  // then sends no body), or else the body's `idempotencyKey` (the gateway sends the body for it).
  const replayFirst = (kind: 'recording' | 'series') => async (req: Request, res: Response, next: NextFunction) => {
    const replayOnly = req.headers[REPLAY_ONLY_HEADER];
    if (typeof replayOnly !== 'string') return next();
    const body: unknown = req.body;
    const bodyKey =
      typeof body === 'object' && body !== null ? (body as Record<string, unknown>).idempotencyKey : undefined;
    res
      .status(200)
      .json(
        await asks.replayOnly(
          principalOf(res),
          { kind, id: String(req.params.id) },
          req.headers['idempotency-key'] ?? bodyKey,
          replayOnly,
        ),
      );
  };

  // The quotes are the recordings service's now; these answer a gateway of the last release during
  // a rolling update (remove in the next release, with the bus's price subjects).
  mountOperation(router, 'quoteRecordingAsk', async ({ params }, { res }) =>
    asks.quoteRecording(principalOf(res), params.id),
  );
  mountOperation(
    router,
    'askRecording',
    async ({ params, body, headers }, { res }) =>
      asks.askRecording(principalOf(res), params.id, body, headers['idempotency-key']),
    {
      guards: [replayFirst('recording')],
    },
  );
  mountOperation(router, 'quoteSeriesAsk', async ({ params }, { res }) =>
    asks.quoteSeries(principalOf(res), params.id),
  );
  mountOperation(
    router,
    'askSeries',
    async ({ params, body, headers }, { res }) =>
      seriesAnswer(await asks.askSeries(principalOf(res), params.id, body, headers['idempotency-key'])),
    {
      guards: [replayFirst('series')],
    },
  );
  // The app's Ask tab (an app principal only): the person's earlier questions and answers.
  mountOperation(
    router,
    'appListRecordingAsks',
    async ({ params }, { res }) => ({
      items: await asks.earlier(principalOf(res), { kind: 'recording', id: params.id }),
    }),
    { guards: [appPrincipalOnly] },
  );
  mountOperation(
    router,
    'appListSeriesAsks',
    async ({ params }, { res }) => ({ items: await asks.earlier(principalOf(res), { kind: 'series', id: params.id }) }),
    { guards: [appPrincipalOnly] },
  );
  return router;
}
