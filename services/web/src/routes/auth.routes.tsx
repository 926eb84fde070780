import { Router } from 'express';
import { APP_LINK_HEADER } from '@mm/http';
import { anyone, q, sendPage, type PageDeps } from './context';
import { refusalText, ResetRequestView, SetPasswordView, SignInView } from '../views/auth.views';

/** Sign-in's pages. Their forms post to the gateway, which owns sign-in and sends the browser back here. */
export function authRoutes(deps: PageDeps): Router {
  const router = Router();
  const { base } = deps;
  router.get(
    '/sign-in',
    anyone(deps, (req, res, ctx) => {
      if (ctx.viewer.signedIn && !q(req, 'error')) return res.redirect(303, `${base}/`);
      const next = q(req, 'next', 500) ?? `${base}/`;
      sendPage(
        res,
        ctx,
        ctx.s.t.signInTitle,
        <SignInView
          s={ctx.s}
          base={base}
          viewer={ctx.viewer}
          error={refusalText(ctx.s.t, q(req, 'error'))}
          next={next}
        />,
      );
    }),
  );
  router.get(
    '/reset',
    anyone(deps, (req, res, ctx) => {
      const sent = q(req, 'sent');
      sendPage(
        res,
        ctx,
        ctx.s.t.resetTitle,
        <ResetRequestView
          s={ctx.s}
          base={base}
          viewer={ctx.viewer}
          sent={sent === '1' ? 'sent' : sent === 'no-mail' ? 'no-mail' : null}
        />,
      );
    }),
  );
  for (const purpose of ['invite', 'reset'] as const) {
    router.get(
      `/${purpose}/:secret`,
      anyone(deps, (req, res, ctx) => {
        const state = req.headers[APP_LINK_HEADER];
        const usable = state === 'usable' || state === 'needs-email';
        const title = purpose === 'invite' ? ctx.s.t.setPasswordTitle : ctx.s.t.chooseNewPasswordTitle;
        const action = `${base}/${purpose}/${encodeURIComponent(String(req.params.secret))}`;
        sendPage(
          res,
          ctx,
          title,
          <SetPasswordView
            s={ctx.s}
            base={base}
            viewer={ctx.viewer}
            action={action}
            usable={usable}
            askEmail={state === 'needs-email'}
            error={refusalText(ctx.s.t, q(req, 'error'))}
          />,
          usable ? 200 : 410,
        );
      }),
    );
  }
  return router;
}
