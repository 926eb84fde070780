import express, { Router, type Response } from 'express';
import { seriesText } from '../i18n/series-messages';
import { NotFoundView } from '../views/pages.views';
import { InviteCreatedView, InviteView } from '../views/series-sharing.view';
import { BackendError } from '../services/backend.client';
import { signedIn, sendPage, type Ctx, type PageDeps } from './context';

/** A refusal of the series service that means "nothing here for you" (404), or a malformed id (400). */
const missing = (err: unknown) => err instanceof BackendError && (err.status === 404 || err.status === 400);

/**
 * A series' sharing in the app (the series service's app routes, with the session's principal):
 * invite links (made by the owner, opened and accepted by a signed-in person of another account),
 * removing a member or leaving, the email list, and deleting the series. Anything the caller cannot
 * reach is the app's plain 404 page, which names nothing.
 */
export function seriesSharingRoutes(deps: PageDeps): Router {
  const router = Router();
  const { base, backend } = deps;
  const form = express.urlencoded({ extended: false, limit: '20kb', parameterLimit: 10 });
  const notFound = (res: Response, ctx: Ctx) =>
    sendPage(res, ctx, ctx.s.t.notFoundTitle, <NotFoundView s={ctx.s} base={base} />, 404);
  const seriesPath = (id: string) => `${base}/series/${encodeURIComponent(id)}`;
  /** Runs a series operation; a 404 (or a malformed id) becomes the 404 page. */
  const orNotFound = async <T,>(res: Response, ctx: Ctx, run: () => Promise<T>): Promise<T | null> => {
    try {
      return await run();
    } catch (err) {
      if (!missing(err)) throw err;
      notFound(res, ctx);
      return null;
    }
  };

  router.post(
    '/series/:id/invites',
    form,
    signedIn(deps, async (req, res, ctx) => {
      const id = String(req.params.id);
      const made = await orNotFound(res, ctx, () =>
        backend.operation('appCreateSeriesInvite', ctx.principal, { params: { id } }),
      );
      if (!made) return;
      res.setHeader('Cache-Control', 'no-store');
      sendPage(
        res,
        ctx,
        seriesText(ctx.s.locale).invite,
        <InviteCreatedView
          s={ctx.s}
          url={`${deps.appUrl}/series-invites/${made.invite.id}`}
          back={`${seriesPath(id)}#members`}
        />,
        201,
      );
    }),
  );

  // The link's secret is in the path: never sent to another site (same-origin keeps Origin on the page's own forms).
  // The page a new invite is shown on answers a POST; coming back to it (the language switch) opens the series.
  router.get('/series/:id/invites', (req, res) => res.redirect(303, `${seriesPath(String(req.params.id))}#members`));

  router.get(
    '/series-invites/:secret',
    signedIn(deps, async (req, res, ctx) => {
      const secret = String(req.params.secret);
      res.setHeader('Referrer-Policy', 'same-origin');
      res.setHeader('X-Robots-Tag', 'noindex, nofollow');
      const found = await orNotFound(res, ctx, () =>
        backend.operation('appReadSeriesInvite', ctx.principal, { params: { id: secret } }),
      );
      if (!found) return;
      const inv = found.invite;
      sendPage(
        res,
        ctx,
        seriesText(ctx.s.locale).inviteTitle,
        <InviteView
          s={ctx.s}
          viewer={ctx.viewer}
          action={`${base}/series-invites/${secret}`}
          name={inv.seriesName}
          alreadyIn={inv.alreadyIn}
          seriesUrl={seriesPath(inv.seriesId)}
        />,
      );
    }),
  );

  router.post(
    '/series-invites/:secret',
    form,
    signedIn(deps, async (req, res, ctx) => {
      res.setHeader('Referrer-Policy', 'same-origin');
      try {
        const r = await backend.operation('appAcceptSeriesInvite', ctx.principal, {
          params: { id: String(req.params.secret) },
        });
        res.redirect(303, `${seriesPath(r.seriesId)}?done=1`);
      } catch (err) {
        // Used by someone else, expired, unknown, or the owner's own link: nothing to join here.
        if (err instanceof BackendError && err.status < 500) return notFound(res, ctx);
        throw err;
      }
    }),
  );

  // The owner removes a member; a member removes themself (leaves, and goes back to the series list).
  router.post(
    '/series/:id/members/:accountId/remove',
    form,
    signedIn(deps, async (req, res, ctx) => {
      const id = String(req.params.id);
      const accountId = String(req.params.accountId);
      const done = await orNotFound(res, ctx, () =>
        backend.operation('appRemoveSeriesMember', ctx.principal, { params: { id, accountId } }),
      );
      if (!done) return;
      res.redirect(303, accountId === ctx.who.accountId ? `${base}/series?left=1` : `${seriesPath(id)}?done=1#members`);
    }),
  );

  router.post(
    '/series/:id/email-list',
    form,
    signedIn(deps, async (req, res, ctx) => {
      const id = String(req.params.id);
      const emails = String((req.body as Record<string, string> | undefined)?.emails ?? '')
        .slice(0, 17_000)
        .split(/[\r\n,]+/)
        .map((x) => x.trim().toLowerCase())
        .filter(Boolean);
      try {
        await backend.operation('appReplaceSeriesEmailList', ctx.principal, {
          params: { id },
          body: { emails: [...new Set(emails)] },
        });
        res.redirect(303, `${seriesPath(id)}?done=1#email-list`);
      } catch (err) {
        if (!(err instanceof BackendError) || err.status >= 500) throw err;
        if (err.status === 404) return notFound(res, ctx);
        res.redirect(303, `${seriesPath(id)}?emailError=${encodeURIComponent(err.code)}#email-list`);
      }
    }),
  );

  router.post(
    '/series/:id/delete',
    form,
    signedIn(deps, async (req, res, ctx) => {
      const id = String(req.params.id);
      if ((req.body as Record<string, string> | undefined)?.confirm !== 'yes')
        return void res.redirect(303, `${seriesPath(id)}#delete`);
      const done = await orNotFound(res, ctx, () =>
        backend.operation('appDeleteSeries', ctx.principal, { params: { id } }),
      );
      if (!done) return;
      res.redirect(303, `${base}/series?deleted=1`);
    }),
  );
  return router;
}
