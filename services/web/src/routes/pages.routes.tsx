import express, { Router } from 'express';
import { isLocale } from '../i18n/messages';
import { anyone, signedIn, sendPage, q, type PageDeps } from './context';
import { HomeView, NotFoundView, SessionsView } from '../views/pages.views';

/** The signed-in pages that are not the tokens page: home, sessions, the language switch. */
export function pagesRoutes(deps: PageDeps): Router {
  const router = Router();
  const { base, backend } = deps;
  router.get(
    '/',
    signedIn(deps, async (_req, res, ctx) => {
      sendPage(res, ctx, ctx.s.t.homeTitle, <HomeView s={ctx.s} base={base} viewer={ctx.viewer} />);
    }),
  );
  router.get(
    '/sessions',
    signedIn(deps, async (req, res, ctx) => {
      const { sessions } = await backend.operation('appListSessions', ctx.principal);
      res.setHeader('Cache-Control', 'no-store');
      sendPage(
        res,
        ctx,
        ctx.s.t.sessionsTitle,
        <SessionsView
          s={ctx.s}
          base={base}
          viewer={ctx.viewer}
          sessions={sessions}
          done={q(req, 'done') === 'signed-out-others'}
        />,
      );
    }),
  );
  // The meeting page and the naming sheet: meeting.routes.tsx (issue 29).
  // The language switch: the account's uiLocale (account service), then back to the page it was on.
  router.post(
    '/language',
    express.urlencoded({ extended: false, limit: '8kb', parameterLimit: 10 }),
    signedIn(deps, async (req, res, ctx) => {
      const body = (req.body ?? {}) as Record<string, unknown>;
      if (isLocale(body.locale))
        await backend.operation('appUpdateSettings', ctx.principal, { body: { uiLocale: body.locale } });
      const back =
        typeof body.back === 'string' && body.back.startsWith(`${base}/`) && !/^\/\/|[\\\s]/.test(body.back)
          ? body.back
          : `${base}/`;
      res.redirect(303, back.slice(0, 500));
    }),
  );
  // A series' page (the series `url`): lists.routes.tsx (issue 29).
  return router;
}

/** Any other path of the app: its own Not-found page (a whole page, in the viewer's language), 404. */
export function notFoundRoutes(deps: PageDeps): Router {
  const router = Router();
  router.use(
    anyone(deps, (_req, res, ctx) =>
      sendPage(res, ctx, ctx.s.t.notFoundTitle, <NotFoundView s={ctx.s} base={deps.base} />, 404),
    ),
  );
  return router;
}
