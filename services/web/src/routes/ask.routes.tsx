import { randomBytes } from 'node:crypto';
import express, { Router, type Request } from 'express';
import { signedIn, q, type Ctx, type PageDeps } from './context';
import { BackendError } from '../services/backend.client';
import { askRefusal, askText } from '../i18n/ask-messages';
import type { AskPanel, EarlierAsk } from '../views/ask.view';

type Kind = 'recordings' | 'series';

/**
 * The Ask tab's data from the ask service, with the session's principal: the quote (or why no
 * question can be asked now) and the person's earlier questions and answers on it.
 */
export async function askPanelOf(
  deps: PageDeps,
  ctx: Ctx & { principal: string },
  req: Request,
  kind: Kind,
  id: string,
  rest: Pick<AskPanel, 'turns' | 'speakers' | 'audio' | 'meetings'>,
): Promise<AskPanel> {
  const a = askText(ctx.s.locale);
  const { backend } = deps;
  const params = { params: { id } };
  const [quote, earlier] = await Promise.all([
    (kind === 'series'
      ? backend.operation('quoteSeriesAsk', ctx.principal, params)
      : backend.operation('quoteRecordingAsk', ctx.principal, params)
    ).then(
      (x) => ({
        quote: {
          minutes: x.minutes,
          meetingCount: 'meetingCount' in x && typeof x.meetingCount === 'number' ? x.meetingCount : undefined,
        },
        blocked: null,
      }),
      (err: unknown) => {
        if (!(err instanceof BackendError) || err.status >= 500) throw err;
        return {
          quote: null,
          blocked: askRefusal(a, err.status === 404 && kind === 'series' ? 'ASK_DISABLED' : err.code),
        };
      },
    ),
    (kind === 'series'
      ? backend.operation('appListSeriesAsks', ctx.principal, params)
      : backend.operation('appListRecordingAsks', ctx.principal, params)
    ).then(
      // The ask service writes each item as EarlierAsk (the table's schema leaves items open).
      (x) => x.items as EarlierAsk[],
      () => [],
    ),
  ]);
  return {
    ...quote,
    error: askRefusal(a, q(req, 'error', 40)),
    items: earlier,
    key: randomBytes(16).toString('base64url'),
    action: `${deps.base}/${kind}/${encodeURIComponent(id)}/ask`,
    ...rest,
  };
}

/** Asking from the Ask tab's form: the ask service's own route, the page's key and the quote it showed as the ceiling. */
export function askRoutes(deps: PageDeps): Router {
  const router = Router();
  const form = express.urlencoded({ extended: false, limit: '16kb', parameterLimit: 10 });
  for (const kind of ['recordings', 'series'] as const) {
    router.post(
      `/${kind}/:id/ask`,
      form,
      signedIn(deps, async (req, res, ctx) => {
        const b = (req.body ?? {}) as Record<string, string>;
        const page = `${deps.base}/${kind}/${encodeURIComponent(String(req.params.id))}?tab=ask`;
        const maxMinutes = Number(b.maxMinutes);
        const body = {
          question: String(b.question ?? '').slice(0, 2000),
          ...(Number.isInteger(maxMinutes) && maxMinutes >= 1 ? { maxMinutes } : {}),
        };
        const key = typeof b.key === 'string' ? b.key.slice(0, 64) : '';
        try {
          const call = {
            params: { id: String(req.params.id) },
            body,
            headers: key ? { 'idempotency-key': key } : {},
          };
          if (kind === 'series') await deps.backend.operation('askSeries', ctx.principal, call);
          else await deps.backend.operation('askRecording', ctx.principal, call);
        } catch (err) {
          if (!(err instanceof BackendError) || (err.status >= 500 && err.code !== 'GENERATE_FAILED')) throw err;
          return res.redirect(303, `${page}&error=${encodeURIComponent(err.code)}#ask`);
        }
        res.redirect(303, `${page}#ask`);
      }),
    );
  }
  return router;
}
