import type { Express, NextFunction, Request, Response } from 'express';
import type { Kysely } from 'kysely';
import type { Database } from './db/schema';
import { ShareLinkRepository } from './db/share-link.repository';
import { ShareLinks } from './services/share-links';
import { shareRoutes } from './routes/share.routes';
import type { Logger } from 'pino';
import { createServiceApp, finishApp, type PrincipalVerifier } from '@mm/http';
import type { WebConfig } from './config';
import type { Asset } from './assets';
import { Backend, BackendError } from './services/backend.client';
import { UploadStore } from './services/upload-store';
import { uploadRoutes } from './routes/upload.routes';
import { askRoutes } from './routes/ask.routes';
import type { PageDeps } from './routes/context';
import { authRoutes } from './routes/auth.routes';
import { tokensRoutes } from './routes/tokens.routes';
import { notFoundRoutes, pagesRoutes } from './routes/pages.routes';
import { meetingRoutes } from './routes/meeting.routes';
import { seriesSharingRoutes } from './routes/series-sharing.routes';
import { listsRoutes } from './routes/lists.routes';
import { accountRoutes } from './routes/account.routes';

export interface WebDeps {
  config: WebConfig;
  verifier: PrincipalVerifier;
  /** The app's own schema: share links. */
  db: Kysely<Database>;
  assets: Record<string, Asset>;
  logger: Logger;
  ready: () => Promise<boolean>;
}

/** A strict policy: no inline script or style, nothing from elsewhere, no framing, forms only to the app. */
const CSP =
  "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; media-src 'self' blob:; connect-src 'self'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'";

/** The app's express app (reached only through the gateway, which decides who the request is). */
export function createApp(deps: WebDeps): Express {
  const base = new URL(deps.config.appUrl).pathname.replace(/\/$/, '');
  const urls = deps.config.serviceUrls;
  const pageDeps: PageDeps = {
    backend: new Backend({
      gateway: urls.gateway,
      recordings: urls.recordings,
      series: urls.series,
      account: urls.account,
      ask: urls.ask,
      events: urls.events,
    }),
    verifier: deps.verifier,
    base,
    appUrl: deps.config.appUrl,
    uploads: new UploadStore(deps.config.uploadDir, deps.config.uploadBudgetMb * 1024 * 1024),
    shares: new ShareLinks(new ShareLinkRepository(deps.db), deps.config.internalJwtSecret),
    limits: { maxUploadMb: deps.config.maxUploadMb, maxRecordingMinutes: deps.config.maxRecordingMinutes },
  };
  const app = createServiceApp({ name: 'web', logger: deps.logger, ready: deps.ready, parseJson: false });
  app.use((_req: Request, res: Response, next: NextFunction) => {
    res.setHeader('Content-Security-Policy', CSP);
    res.setHeader('X-Content-Type-Options', 'nosniff');
    res.setHeader('Referrer-Policy', 'same-origin');
    res.setHeader('X-Frame-Options', 'DENY');
    next();
  });
  app.get(`${base}/assets/:name`, (req, res, next) => {
    const a = deps.assets[String(req.params.name)];
    if (!a) return next();
    res.setHeader('Cache-Control', 'public, max-age=300');
    res.setHeader('ETag', a.etag);
    if (req.headers['if-none-match'] === a.etag) return void res.status(304).end();
    res.type(a.type).send(a.body);
  });
  // `/app` alone (express matches `/app/` here too: only the bare path is sent on).
  app.get(base, (req, res, next) => (req.path === base ? res.redirect(301, `${base}/`) : next()));
  app.use(base, (_req: Request, res: Response, next: NextFunction) => {
    res.setHeader('Cache-Control', 'no-store');
    next();
  });
  app.use(base, authRoutes(pageDeps));
  app.use(base, tokensRoutes(pageDeps));
  app.use(base, meetingRoutes(pageDeps));
  app.use(base, uploadRoutes(pageDeps));
  app.use(base, askRoutes(pageDeps));
  app.use(base, shareRoutes(pageDeps));
  app.use(base, seriesSharingRoutes(pageDeps));
  app.use(base, listsRoutes(pageDeps));
  app.use(base, pagesRoutes(pageDeps));
  app.use(base, accountRoutes(pageDeps));
  const notFound = notFoundRoutes(pageDeps);
  app.use(base, notFound);
  // A page read whose id the services refuse (malformed: 400, missing: 404) names nothing: the
  // app's own Not-found page, as for any id that names nothing, not the services' JSON.
  app.use(base, (err: unknown, req: Request, res: Response, next: NextFunction) => {
    const namesNothing = err instanceof BackendError && (err.status === 400 || err.status === 404);
    if (req.method === 'GET' && !res.headersSent && namesNothing) return notFound(req, res, next);
    next(err);
  });
  return finishApp(app, deps.logger);
}
