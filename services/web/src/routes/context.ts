import type { NextFunction, Request, Response } from 'express';
import type { ComponentChildren } from 'preact';
import { APP_CSRF_HEADER, PRINCIPAL_HEADER, type Principal, type PrincipalVerifier } from '@mm/http';
import { isLocale, speechOf, type Locale, type Speech } from '../i18n/messages';
import { renderPage, type Viewer } from '../views/layout';
import type { Backend } from '../services/backend.client';

/** What every page handler starts from: who is looking, in which language, and how to reach the services. */
export interface Ctx {
  s: Speech;
  viewer: Viewer;
  /** The signed principal the gateway gave this request (null when signed out). */
  principal: string | null;
  who: Principal | null;
  base: string;
  here: string;
}

export interface PageDeps {
  backend: Backend;
  verifier: PrincipalVerifier;
  /** The app's path prefix (`/app`). */
  base: string;
}

/** The language of a signed-out page: `?lang=`, else the browser's first choice we speak, else English. */
function signedOutLocale(req: Request): Locale {
  const asked = req.query.lang;
  if (isLocale(asked)) return asked;
  const accept = String(req.headers['accept-language'] ?? '').toLowerCase();
  const first = accept.split(',').map((x) => x.trim().slice(0, 2)).find((x) => isLocale(x));
  return first === 'fa' ? 'fa' : 'en';
}

export async function contextOf(deps: PageDeps, req: Request): Promise<Ctx> {
  const jwt = req.headers[PRINCIPAL_HEADER];
  const principal = typeof jwt === 'string' && jwt ? jwt : null;
  const who = principal ? await deps.verifier.verify(principal).catch(() => null) : null;
  let locale = signedOutLocale(req);
  if (who && principal) {
    // The account's own setting (uiLocale) wins once signed in.
    const account = await deps.backend.operation('getAccount', principal).catch(() => null);
    if (account && isLocale(account.settings.uiLocale)) locale = account.settings.uiLocale;
  }
  const csrf = req.headers[APP_CSRF_HEADER];
  return {
    s: speechOf(locale),
    viewer: { signedIn: who !== null, displayName: who?.displayName ?? null, csrf: who && typeof csrf === 'string' ? csrf : null },
    principal: who ? principal : null,
    who,
    base: deps.base,
    here: req.originalUrl,
  };
}

/** Sends a page. */
export function sendPage(res: Response, ctx: Ctx, title: string, body: ComponentChildren, status = 200): void {
  res.status(status).type('html').send(renderPage({ s: ctx.s, viewer: ctx.viewer, base: ctx.base, title, here: ctx.here }, body));
}

/** A page handler of a signed-in page: signed out, the browser goes to sign-in and comes back after. */
export function signedIn(deps: PageDeps, fn: (req: Request, res: Response, ctx: Ctx & { principal: string; who: Principal }) => Promise<void>) {
  return (req: Request, res: Response, next: NextFunction) => {
    contextOf(deps, req)
      .then((ctx) => {
        if (!ctx.principal || !ctx.who) return res.redirect(303, `${deps.base}/sign-in?next=${encodeURIComponent(req.originalUrl)}`);
        return fn(req, res, ctx as Ctx & { principal: string; who: Principal });
      })
      .catch(next);
  };
}

/** A page anyone may see. */
export function anyone(deps: PageDeps, fn: (req: Request, res: Response, ctx: Ctx) => Promise<void> | void) {
  return (req: Request, res: Response, next: NextFunction) => {
    contextOf(deps, req)
      .then((ctx) => fn(req, res, ctx))
      .catch(next);
  };
}

/** A query parameter as one short string (never an array), or undefined. */
export function q(req: Request, name: string, max = 100): string | undefined {
  const v = req.query[name];
  return typeof v === 'string' ? v.slice(0, max) : undefined;
}
