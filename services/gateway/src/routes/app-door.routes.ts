import { timingSafeEqual } from 'node:crypto';
import { pipeline } from 'node:stream/promises';
import express, { type NextFunction, type Request, type Response, type Router } from 'express';
import type { Logger } from 'pino';
import { request as undiciRequest } from 'undici';
import { APP_SESSION_COOKIE } from '@mm/contract';
import {
  ApiError,
  APP_CSRF_HEADER,
  APP_LINK_HEADER,
  APP_TIME_ZONE_COOKIE,
  APP_TIME_ZONE_HEADER,
  browserLocale,
  CSRF_FIELD,
  CSRF_REQUEST_HEADER,
  hasBody,
  parseBearer,
  PRINCIPAL_HEADER,
  UPLOAD_REQUEST_TIMEOUT_MS,
} from '@mm/http';
import type { SessionWithAccount } from '../db/sign-in.repository';
import { cookieValue, safeNextPath } from '../domain/sign-in-rules';
import { clientAddress, type TrustedProxies } from '../domain/client-address';
import { formRefusalPage, type FormRefusal } from '../domain/form-refusal-page';
import type { PrincipalSigner } from '../services/principals';
import { SignInRefusal, type NewSession, type SignInService } from '../services/sign-in.service';

export interface AppDoorDeps {
  signIn: SignInService;
  signer: PrincipalSigner;
  /** The app's public address (APP_URL): its origin is the only one a form may come from. */
  appUrl: string;
  /** Where the app (services/web) listens; read at each request (a test stack learns it after the gateway starts). */
  serviceUrls: { web: string };
  trustedProxies: TrustedProxies;
  logger: Logger;
}

/** Headers of the browser's request passed to the app; everything else (cookies included) stays here. */
const PASS = ['accept', 'accept-language', 'user-agent', 'content-type', 'if-none-match', 'range'];
/** Headers of the app's answer never passed back (its body streams through as it is: its length stays). */
const DROP_BACK = new Set(['connection', 'keep-alive', 'transfer-encoding', 'x-request-id']);
/** How long the app may take to answer a request whose body streams through (an upload's piece or send): the public path's. */
const STREAMED_ANSWER_TIMEOUT_MS = UPLOAD_REQUEST_TIMEOUT_MS;
/** How long an answer may wait for its headers, or stop sending its body, otherwise. */
const ANSWER_TIMEOUT_MS = 30_000;

/**
 * What the door learns of a request: its session, its form (a page's urlencoded form, read here
 * for its CSRF field), and whether its body streams to the app unread (`stream`).
 */
type Locals = { session: SessionWithAccount | null; params: URLSearchParams; body?: Buffer; stream?: boolean };

/**
 * The app's door at the gateway: `/app/*`. The gateway turns the session cookie into an `app`
 * principal (never a token's: a session reaches no token route, a token no app route), checks
 * every state-changing request's Origin and CSRF token, answers sign-in's own forms itself
 * (sign-in, sign-out, invite and reset links, password, other sessions), and passes the rest to
 * the app (services/web), which renders pages and calls the owning services with the principal.
 */
export function appDoorRouter(deps: AppDoorDeps): Router {
  const router = express.Router();
  const appPath = new URL(deps.appUrl).pathname.replace(/\/$/, '');
  const appOrigin = new URL(deps.appUrl).origin;
  const secure = deps.appUrl.startsWith('https:');
  // What the door learns of a request (its session, its form), kept beside the response, typed.
  const state = new WeakMap<Response, Locals>();
  const locals = (res: Response): Locals => {
    let l = state.get(res);
    if (!l) {
      l = { session: null, params: new URLSearchParams() };
      state.set(res, l);
    }
    return l;
  };
  const wrap =
    (fn: (req: Request, res: Response) => Promise<void>) => (req: Request, res: Response, next: NextFunction) =>
      fn(req, res).catch(next);

  const setCookie = (res: Response, s: NewSession | null) => {
    const attrs = `Path=/; HttpOnly; SameSite=Lax${secure ? '; Secure' : ''}`;
    res.append(
      'Set-Cookie',
      s
        ? `${APP_SESSION_COOKIE}=${s.secret}; Max-Age=${s.maxAgeSeconds}; ${attrs}`
        : `${APP_SESSION_COOKIE}=; Max-Age=0; ${attrs}`,
    );
  };
  const seeOther = (res: Response, path: string) => {
    res.setHeader('Cache-Control', 'no-store');
    res.redirect(303, path);
  };
  const refusedTo = (res: Response, page: string, err: unknown, extra: Record<string, string> = {}) => {
    if (!(err instanceof SignInRefusal)) throw err;
    const q = new URLSearchParams({ error: err.code, ...extra });
    if (err.retryAfterSeconds) res.setHeader('Retry-After', String(err.retryAfterSeconds));
    seeOther(res, `${page}?${q}`);
  };
  /** The page's language a signed-out form sends (`lang`), or null. */
  const formLang = (res: Response): 'en' | 'fa' | null => {
    const lang = locals(res).params.get('lang');
    return lang === 'en' || lang === 'fa' ? lang : null;
  };
  const forbidden = (req: Request, res: Response, why: FormRefusal) => {
    res.status(403).type('text/html; charset=utf-8').setHeader('Cache-Control', 'no-store');
    // No script, nothing from elsewhere, not framed: the app's own policy, for the one stylesheet.
    res.setHeader(
      'Content-Security-Policy',
      "default-src 'none'; style-src 'self'; base-uri 'none'; frame-ancestors 'none'",
    );
    res.setHeader('X-Content-Type-Options', 'nosniff');
    // The form's own language when it sent one (a signed-out page), else the browser's.
    res.send(formRefusalPage(why, formLang(res) ?? browserLocale(req.headers['accept-language']), appPath));
  };

  // Who is asking: the session of the cookie, if it holds. A cookie that does not is cleared.
  // A token is refused here as on every app route (it never signs anyone in to the app).
  router.use((req, res, next) => {
    if (parseBearer(req.headers.authorization))
      return next(new ApiError('TOKEN_NOT_ACCEPTED', 'The app takes no API token; sign in instead.'));
    const secret = cookieValue(req.headers.cookie, APP_SESSION_COOKIE);
    (secret ? deps.signIn.resolve(secret) : Promise.resolve(null)).then((session) => {
      if (secret && !session) setCookie(res, null);
      locals(res).session = session;
      locals(res).params = new URLSearchParams();
      next();
    }, next);
  });

  // A state-changing request: same origin (Origin, else Referer) and (once signed in) the session's
  // CSRF token. A page's form (urlencoded, small) is read here for its CSRF field, at most 64 KB;
  // any other body (an upload's pieces, the page scripts' JSON) is not read: its token comes in
  // the x-csrf-token header and the body streams to the app unread, under the server's own
  // watch and timeouts (body-watch.ts: a body that stops arriving is refused, as on the public
  // path). Sign-in's own forms have no session yet: for them the origin check is the whole
  // defence (with SameSite=Lax cookies).
  const readForm = express.raw({ type: () => true, limit: '64kb' });
  const checkCsrf = (req: Request, res: Response, next: NextFunction, headerToken: string) => {
    const session = locals(res).session;
    if (session) {
      const sent = locals(res).params.get(CSRF_FIELD) ?? headerToken;
      if (!sameSecret(sent, session.session.csrfToken)) return forbidden(req, res, 'stale');
    }
    next();
  };
  router.use((req, res, next) => {
    if (req.method === 'GET' || req.method === 'HEAD') return next();
    if (!sameOrigin(req.headers.origin ?? refererOrigin(req.headers.referer), appOrigin, req.headers.host))
      return forbidden(req, res, 'origin');
    const headerToken = String(req.headers[CSRF_REQUEST_HEADER] ?? '');
    const type = String(req.headers['content-type'] ?? '');
    if (!type.startsWith('application/x-www-form-urlencoded')) {
      locals(res).stream = true;
      return checkCsrf(req, res, next, headerToken);
    }
    readForm(req, res, (err?: unknown) => {
      if (err) return forbidden(req, res, 'unreadable');
      const raw = Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0);
      locals(res).body = raw;
      locals(res).params = new URLSearchParams(raw.toString('utf8'));
      checkCsrf(req, res, next, headerToken);
    });
  });

  const field = (res: Response, name: string, max = 1000) => (locals(res).params.get(name) ?? '').slice(0, max + 1);
  /** The language a signed-out form sent (formLang), kept on the page it is sent back to. */
  const langOf = (res: Response): Record<string, string> => {
    const lang = formLang(res);
    return lang ? { lang } : {};
  };
  const withLang = (res: Response, query: Record<string, string>) => new URLSearchParams({ ...query, ...langOf(res) });
  const ipOf = (req: Request) =>
    clientAddress(req.socket.remoteAddress, req.headers['x-forwarded-for'], deps.trustedProxies);

  router.post(
    '/sign-in',
    wrap(async (req, res) => {
      const next = safeNextPath(field(res, 'next'), appPath);
      try {
        const s = await deps.signIn.signIn(
          field(res, 'email'),
          field(res, 'password'),
          ipOf(req),
          req.headers['user-agent'],
        );
        if (locals(res).session) await deps.signIn.signOut(locals(res).session!.session.id);
        setCookie(res, s);
        seeOther(res, next);
      } catch (err) {
        refusedTo(res, `${appPath}/sign-in`, err, { next, ...langOf(res) });
      }
    }),
  );
  for (const purpose of ['invite', 'reset'] as const) {
    router.post(
      `/${purpose}/:secret`,
      wrap(async (req, res) => {
        const page = `${appPath}/${purpose}/${encodeURIComponent(String(req.params.secret))}`;
        if (field(res, 'password') !== field(res, 'confirm'))
          return seeOther(res, `${page}?${withLang(res, { error: 'PASSWORD_MISMATCH' })}`);
        try {
          const s = await deps.signIn.setPasswordFromLink(
            String(req.params.secret),
            purpose,
            field(res, 'password'),
            req.headers['user-agent'],
            field(res, 'email', 320),
          );
          setCookie(res, s);
          seeOther(res, `${appPath}/`);
        } catch (err) {
          refusedTo(res, page, err, langOf(res));
        }
      }),
    );
  }
  router.post(
    '/reset',
    wrap(async (_req, res) => {
      // Without SMTP no link can be sent: the page says so (alike for every email) instead of "on its way".
      if (!deps.signIn.emails) return seeOther(res, `${appPath}/reset?${withLang(res, { sent: 'no-mail' })}`);
      deps.signIn.requestReset(field(res, 'email', 320));
      seeOther(res, `${appPath}/reset?${withLang(res, { sent: '1' })}`);
    }),
  );

  // Signed in from here on.
  router.use((req, res, next) => {
    if (locals(res).session || req.method === 'GET' || req.method === 'HEAD') return next();
    seeOther(res, `${appPath}/sign-in`);
  });
  router.post(
    '/sign-out',
    wrap(async (_req, res) => {
      await deps.signIn.signOut(locals(res).session!.session.id);
      setCookie(res, null);
      seeOther(res, `${appPath}/sign-in`);
    }),
  );
  router.post(
    '/sessions/sign-out-others',
    wrap(async (_req, res) => {
      const { session } = locals(res).session!;
      await deps.signIn.signOutOthers(session.accountId, session.id);
      seeOther(res, `${appPath}/sessions?done=signed-out-others`);
    }),
  );
  router.post(
    '/password',
    wrap(async (req, res) => {
      const { session } = locals(res).session!;
      if (field(res, 'password') !== field(res, 'confirm'))
        return seeOther(res, `${appPath}/profile?error=PASSWORD_MISMATCH`);
      try {
        await deps.signIn.changePassword(
          session.accountId,
          session.id,
          field(res, 'current'),
          field(res, 'password'),
          ipOf(req),
        );
        seeOther(res, `${appPath}/profile?done=password`);
      } catch (err) {
        refusedTo(res, `${appPath}/profile`, err);
      }
    }),
  );

  router.post(
    '/email',
    wrap(async (req, res) => {
      const { session } = locals(res).session!;
      try {
        await deps.signIn.changeEmail(session.accountId, field(res, 'current'), field(res, 'email'), ipOf(req));
        seeOther(res, `${appPath}/profile?done=email`);
      } catch (err) {
        refusedTo(res, `${appPath}/profile`, err);
      }
    }),
  );

  // Everything else is the app's.
  router.use(
    wrap(async (req, res) => {
      const s = locals(res).session;
      const headers: Record<string, string> = {
        'x-request-id': String(res.locals.reqId ?? ''),
        'x-forwarded-for': ipOf(req),
      };
      for (const h of PASS) if (typeof req.headers[h] === 'string') headers[h] = req.headers[h] as string;
      // The viewer's time zone, as their browser keeps it (the app checks it is a zone).
      const zone = cookieValue(req.headers.cookie, APP_TIME_ZONE_COOKIE);
      if (zone && zone.length <= 64) headers[APP_TIME_ZONE_HEADER] = zone;
      if (s) {
        headers[PRINCIPAL_HEADER] = await deps.signer.forApp({
          accountId: s.account.id,
          displayName: s.account.displayName,
          features: s.account.features,
          sessionId: s.session.id,
        });
        headers[APP_CSRF_HEADER] = s.session.csrfToken;
      }
      const link = /^\/(invite|reset)\/([^/?]+)$/.exec(req.path);
      if (link && req.method === 'GET')
        headers[APP_LINK_HEADER] = await deps.signIn.linkState(
          decodeURIComponent(link[2]),
          link[1] as 'invite' | 'reset',
        );
      const { body, stream } = locals(res);
      const streams = stream === true && hasBody(req);
      if (streams && typeof req.headers['content-length'] === 'string')
        headers['content-length'] = req.headers['content-length'];
      const up = await undiciRequest(`${deps.serviceUrls.web}${req.originalUrl}`, {
        method: req.method as 'GET',
        headers,
        // A streamed body goes as it arrives (an upload is never held whole here); a form as read.
        body: streams ? req : body && body.length ? body : undefined,
        headersTimeout: streams ? STREAMED_ANSWER_TIMEOUT_MS : ANSWER_TIMEOUT_MS,
        bodyTimeout: ANSWER_TIMEOUT_MS,
      });
      res.status(up.statusCode);
      for (const [k, v] of Object.entries(up.headers))
        if (v !== undefined && !DROP_BACK.has(k) && !k.startsWith('x-mm-')) res.append(k, v);
      // The answer streams back too (audio, a bundle): never held whole.
      await pipeline(up.body, res).catch((err: unknown) => {
        // The browser went away mid-answer: nobody is left to tell.
        if (res.headersSent) return void res.destroy();
        throw err;
      });
    }),
  );
  return router;
}

function refererOrigin(referer: string | undefined): string | undefined {
  if (!referer) return undefined;
  try {
    return new URL(referer).origin;
  } catch {
    return undefined;
  }
}

/**
 * Whether a request's Origin is the app's: APP_URL's origin, or the host the browser addressed
 * (the Host header, which a page of another site cannot set), so that the app also works at an
 * address other than APP_URL's (127.0.0.1 and localhost, a test's free port).
 */
function sameOrigin(from: string | undefined, appOrigin: string, host: string | undefined): boolean {
  if (!from || from === 'null') return false;
  if (from === appOrigin) return true;
  try {
    const u = new URL(from);
    return (u.protocol === 'http:' || u.protocol === 'https:') && host !== undefined && u.host === host;
  } catch {
    return false;
  }
}

function sameSecret(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}
