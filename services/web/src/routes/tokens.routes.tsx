import express, { Router, type Request } from 'express';
import { LIMITS, SCOPES, SPENDING_SCOPES, type AppCreateTokenInput } from '@mm/contract';
import { signedIn, sendPage, q, type Ctx, type PageDeps } from './context';
import { BackendError } from '../services/backend.client';
import { EMPTY_DRAFT, TokensView, type TokenDraft, type TokensPageData } from '../views/tokens.view';
import type { Messages } from '../i18n/messages';

/** The form's fields as typed (every value one string, bounded), whatever the browser sent. */
function draftOf(req: Request): TokenDraft {
  const b = (req.body ?? {}) as Record<string, unknown>;
  const one = (v: unknown, max: number) => (typeof v === 'string' ? v.slice(0, max) : '');
  const scopes = (Array.isArray(b.scopes) ? b.scopes : [b.scopes])
    .filter((x): x is string => typeof x === 'string')
    .slice(0, 20);
  return {
    name: one(b.name, 101).trim(),
    scopes,
    expiresInDays: one(b.expiresInDays, 10),
    dailyMinuteCap: one(b.dailyMinuteCap, 20).trim(),
  };
}

/** The API's body for a draft, or the message of what is wrong with it. */
function requestOf(d: TokenDraft, t: Messages): { body: AppCreateTokenInput['body'] } | { error: string } {
  if (!d.name || d.name.length > 100) return { error: t.errorName };
  if (d.scopes.length === 0) return { error: t.errorNeedScope };
  if (d.scopes.some((x) => !(SCOPES as readonly string[]).includes(x))) return { error: t.errorGeneric };
  const expiry = ({ '30': 30, '90': 90, '365': 365, never: null } as const)[d.expiresInDays];
  if (expiry === undefined) return { error: t.errorGeneric };
  let cap: number | null = null;
  if (d.dailyMinuteCap !== '') {
    cap = /^\d{1,6}$/.test(d.dailyMinuteCap) ? Number(d.dailyMinuteCap) : NaN;
    if (!(cap >= LIMITS.dailyMinuteCapMin && cap <= LIMITS.dailyMinuteCapMax)) return { error: t.errorCap };
    // The contract: the cap "applies to tokens that can spend".
    if (!d.scopes.some((x) => (SPENDING_SCOPES as readonly string[]).includes(x))) return { error: t.errorCapNoSpend };
  }
  // In the catalog's order, as the gateway keeps them.
  const scopes = SCOPES.filter((x) => d.scopes.includes(x));
  return { body: { name: d.name, scopes, expiresInDays: expiry, dailyMinuteCap: cap } };
}

/** The tokens page: developer mode, the contract's creation form, the list with revoke. */
export function tokensRoutes(deps: PageDeps): Router {
  const router = Router();
  const { base, backend } = deps;
  const form = express.urlencoded({ extended: false, limit: '32kb', parameterLimit: 50 });

  const show = async (
    res: express.Response,
    ctx: Ctx & { principal: string },
    over: Partial<TokensPageData>,
    status = 200,
  ) => {
    const [{ account }, { tokens }] = await Promise.all([
      backend.operation('appGetAccess', ctx.principal),
      backend.operation('appListTokens', ctx.principal),
    ]);
    const d: TokensPageData = {
      developerMode: account.developerMode,
      switches: account.switches,
      tokens,
      draft: EMPTY_DRAFT,
      error: null,
      notice: null,
      listError: null,
      created: null,
      ...over,
    };
    res.setHeader('Cache-Control', 'no-store');
    sendPage(res, ctx, ctx.s.t.tokensTitle, <TokensView s={ctx.s} base={base} viewer={ctx.viewer} d={d} />, status);
  };

  router.get(
    '/tokens',
    signedIn(deps, async (req, res, ctx) => {
      const done = q(req, 'done');
      const t = ctx.s.t;
      await show(res, ctx, {
        notice: done === 'revoked' ? t.revoked : null,
        listError: done === 'not-found' ? t.revokeNotFound : done === 'not-confirmed' ? t.revokeNotConfirmed : null,
      });
    }),
  );
  router.post(
    '/tokens',
    form,
    signedIn(deps, async (req, res, ctx) => {
      const draft = draftOf(req);
      const asked = requestOf(draft, ctx.s.t);
      if ('error' in asked) return show(res, ctx, { draft, error: asked.error }, 400);
      try {
        const made = await backend.operation('appCreateToken', ctx.principal, { body: asked.body });
        await show(res, ctx, { created: { name: made.token.name, value: made.value } }, 201);
      } catch (err) {
        if (!(err instanceof BackendError) || err.status >= 500) throw err;
        const error =
          err.code === 'SCOPE_UNAVAILABLE'
            ? ctx.s.t.errorScopeUnavailable
            : err.code === 'VALIDATION'
              ? ctx.s.t.errorTokenLimit
              : ctx.s.t.errorGeneric;
        await show(res, ctx, { draft, error }, 400);
      }
    }),
  );
  router.post(
    '/tokens/:id/revoke',
    form,
    signedIn(deps, async (req, res, ctx) => {
      // The row's "Sure" box (required in the form): a revoke is never one stray click.
      if ((req.body as Record<string, unknown> | undefined)?.confirm !== 'yes')
        return res.redirect(303, `${base}/tokens?done=not-confirmed`);
      const id = String(req.params.id);
      // Revoking a revoked token changes nothing and the service answers it alike: the list says whether it was active.
      const { tokens } = await backend.operation('appListTokens', ctx.principal);
      if (!tokens.some((t) => t.id === id)) return res.redirect(303, `${base}/tokens?done=not-found`);
      try {
        await backend.operation('appRevokeToken', ctx.principal, { params: { id } });
      } catch (err) {
        if (!(err instanceof BackendError) || err.code !== 'NOT_FOUND') throw err;
        return res.redirect(303, `${base}/tokens?done=not-found`);
      }
      res.redirect(303, `${base}/tokens?done=revoked`);
    }),
  );
  router.post(
    '/developer-mode',
    form,
    signedIn(deps, async (req, res, ctx) => {
      const on = (req.body as Record<string, unknown>)?.on === 'true';
      await backend.operation('appSetDeveloperMode', ctx.principal, { body: { on } });
      res.redirect(303, `${base}/tokens`);
    }),
  );
  return router;
}
