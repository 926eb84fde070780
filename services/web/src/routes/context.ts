import type { NextFunction, Request, Response } from 'express';
import type { ComponentChildren } from 'preact';
import {
  APP_CSRF_HEADER,
  APP_TIME_ZONE_HEADER,
  browserLocale,
  PRINCIPAL_HEADER,
  type Principal,
  type PrincipalVerifier,
} from '@mm/http';
import { isLocale, speechOf, type Locale, type Speech } from '../i18n/messages';
import { renderPage, type Viewer } from '../views/layout';
import { timeZoneOf } from '../domain/time-zone';
import type { Backend } from '../services/backend.client';
import type { UploadStore } from '../services/upload-store';
import type { ShareLinks } from '../services/share-links';

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
  /** The app's public address (APP_URL), for links given to be sent elsewhere (share links). */
  appUrl: string;
  /** Where uploads made in the browser wait for their last piece. */
  uploads: UploadStore;
  /** Share links of meetings (the app's own data). */
  shares: ShareLinks;
  /** The upload limits the page checks before sending (the recordings service enforces them). */
  limits: { maxUploadMb: number; maxRecordingMinutes: number };
}

/** The language of a signed-out page: `?lang=`, else the browser's first choice we speak, else English. */
function signedOutLocale(req: Request): Locale {
  const asked = req.query.lang;
  if (isLocale(asked)) return asked;
  return browserLocale(req.headers['accept-language']);
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
    s: speechOf(locale, timeZoneOf(req.headers[APP_TIME_ZONE_HEADER])),
    viewer: {
      signedIn: who !== null,
      displayName: who?.displayName ?? null,
      csrf: who && typeof csrf === 'string' ? csrf : null,
    },
    principal: who ? principal : null,
    who,
    base: deps.base,
    here: req.originalUrl,
  };
}

/** Sends a page. */
export function sendPage(res: Response, ctx: Ctx, title: string, body: ComponentChildren, status = 200): void {
  res
    .status(status)
    .type('html')
    .send(renderPage({ s: ctx.s, viewer: ctx.viewer, base: ctx.base, title, here: ctx.here }, body));
}

/** A page handler of a signed-in page: signed out, the browser goes to sign-in and comes back after. */
export function signedIn(
  deps: PageDeps,
  fn: (req: Request, res: Response, ctx: Ctx & { principal: string; who: Principal }) => Promise<void>,
) {
  return (req: Request, res: Response, next: NextFunction) => {
    contextOf(deps, req)
      .then((ctx) => {
        if (!ctx.principal || !ctx.who)
          return res.redirect(303, `${deps.base}/sign-in?next=${encodeURIComponent(req.originalUrl)}`);
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

/**
 * A handler of the page's script (JSON in and out): signed out is 401 with the contract's
 * envelope, never a redirect. It reads no account settings (a piece of an upload is not a page).
 */
export function signedInJson(
  deps: PageDeps,
  fn: (req: Request, res: Response, who: { principal: string; who: Principal }) => Promise<void>,
) {
  return (req: Request, res: Response, next: NextFunction) => {
    const jwt = req.headers[PRINCIPAL_HEADER];
    const principal = typeof jwt === 'string' && jwt ? jwt : null;
    (principal ? deps.verifier.verify(principal).catch(() => null) : Promise.resolve(null))
      .then((who) => {
        if (!who || !principal)
          return void res.status(401).json({ error: { code: 'UNAUTHORIZED', message: 'Sign in again.' } });
        return fn(req, res, { principal, who });
      })
      .catch(next);
  };
}
