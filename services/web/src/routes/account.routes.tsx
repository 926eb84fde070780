import express, { Router, type Request } from 'express';
import { signedIn, sendPage, q, type PageDeps } from './context';
import { BackendError } from '../services/backend.client';
import { refusalText } from '../views/auth.views';
import { KeytermsView, MemoryView, ProfileView, SettingsView, WalletView, type MemoryData, type SettingsData, type WalletData } from '../views/account.views';

const form = express.urlencoded({ extended: false, limit: '32kb', parameterLimit: 50 });
const field = (req: Request, name: string, max: number) => {
  const v = ((req.body ?? {}) as Record<string, unknown>)[name];
  return typeof v === 'string' ? v.slice(0, max) : '';
};

/** The owner's account pages: wallet, settings, vocabulary, memory, profile. Each shows what its service answers. */
export function accountRoutes(deps: PageDeps): Router {
  const router = Router();
  const { base, backend } = deps;
  /** A refusal the service explains (400/409): its message beside the form; anything else is an error. */
  const refusal = (err: unknown) => {
    if (err instanceof BackendError && err.status >= 400 && err.status < 500) return err;
    throw err;
  };

  router.get('/wallet', signedIn(deps, async (_req, res, ctx) => {
    const w = await backend.call<WalletData>('account', ctx.principal, 'GET', '/app/wallet');
    sendPage(res, ctx, ctx.s.t.walletTitle, <WalletView s={ctx.s} w={w} />);
  }));

  router.get('/settings', signedIn(deps, async (req, res, ctx) => {
    const { settings } = await backend.call<{ settings: SettingsData }>('account', ctx.principal, 'GET', '/account');
    sendPage(res, ctx, ctx.s.t.settingsTitle, <SettingsView s={ctx.s} base={base} viewer={ctx.viewer} settings={settings} notice={q(req, 'done') ? ctx.s.t.saved : null} />);
  }));
  router.post('/settings', form, signedIn(deps, async (req, res, ctx) => {
    const mode = field(req, 'speakerNamingMode', 20);
    const locale = field(req, 'uiLocale', 5);
    await backend.call('account', ctx.principal, 'PATCH', '/app/settings', {
      ...(['AUTO', 'FORCE_ON', 'FORCE_OFF'].includes(mode) ? { speakerNamingMode: mode } : {}),
      ...(['en', 'fa'].includes(locale) ? { uiLocale: locale } : {}),
      summaryEmailEnabled: field(req, 'summaryEmailEnabled', 5) === 'true',
      memoryLearningEnabled: field(req, 'memoryLearningEnabled', 5) === 'true',
    });
    res.redirect(303, `${base}/settings?done=1`);
  }));

  const showKeyterms = async (res: express.Response, ctx: Parameters<Parameters<typeof signedIn>[1]>[2], over: { text?: string; error?: string | null; notice?: string | null }, status = 200) => {
    const text = over.text ?? (await backend.call<{ keyterms: string[] }>('account', ctx.principal, 'GET', '/account/keyterms')).keyterms.join('\n');
    sendPage(res, ctx, ctx.s.t.keytermsTitle, <KeytermsView s={ctx.s} base={base} viewer={ctx.viewer} text={text} error={over.error} notice={over.notice} />, status);
  };
  router.get('/keyterms', signedIn(deps, async (req, res, ctx) => showKeyterms(res, ctx, { notice: q(req, 'done') ? ctx.s.t.saved : null })));
  router.post('/keyterms', form, signedIn(deps, async (req, res, ctx) => {
    const text = field(req, 'keyterms', 6000);
    const keyterms = text.split(/\r?\n/).map((x) => x.trim()).filter(Boolean);
    try {
      await backend.call('account', ctx.principal, 'PUT', '/account/keyterms', { keyterms });
      res.redirect(303, `${base}/keyterms?done=1`);
    } catch (err) {
      refusal(err);
      await showKeyterms(res, ctx, { text, error: ctx.s.t.errorGeneric }, 400);
    }
  }));

  const showMemory = async (res: express.Response, ctx: Parameters<Parameters<typeof signedIn>[1]>[2], over: { error?: string | null; notice?: string | null }, status = 200) => {
    const m = await backend.call<MemoryData>('account', ctx.principal, 'GET', '/account/memory');
    sendPage(res, ctx, ctx.s.t.memoryTitle, <MemoryView s={ctx.s} base={base} viewer={ctx.viewer} m={m} error={over.error} notice={over.notice} />, status);
  };
  router.get('/memory', signedIn(deps, async (req, res, ctx) => showMemory(res, ctx, { notice: q(req, 'done') ? ctx.s.t.saved : null })));
  for (const del of [false, true]) {
    router.post(del ? '/memory/:id/delete' : '/memory/:id', form, signedIn(deps, async (req, res, ctx) => {
      const path = `/account/memory/${encodeURIComponent(String(req.params.id))}`;
      try {
        if (del) await backend.call('account', ctx.principal, 'DELETE', path);
        else await backend.call('account', ctx.principal, 'PATCH', path, { text: field(req, 'text', 1001) });
        res.redirect(303, `${base}/memory?done=1`);
      } catch (err) {
        refusal(err);
        await showMemory(res, ctx, { error: ctx.s.t.errorGeneric }, 400);
      }
    }));
  }

  router.get('/profile', signedIn(deps, async (req, res, ctx) => {
    const { account } = await backend.call<{ account: { displayName: string | null } }>('gateway', ctx.principal, 'GET', '/internal/app/account');
    const notice = q(req, 'done') === 'password' ? ctx.s.t.passwordChanged : q(req, 'done') ? ctx.s.t.saved : null;
    sendPage(res, ctx, ctx.s.t.profileTitle, <ProfileView s={ctx.s} base={base} viewer={ctx.viewer} displayName={account.displayName} notice={notice} error={refusalText(ctx.s.t, q(req, 'error'))} />);
  }));
  router.post('/profile', form, signedIn(deps, async (req, res, ctx) => {
    await backend.call('gateway', ctx.principal, 'PATCH', '/internal/app/profile', { displayName: field(req, 'displayName', 200) });
    res.redirect(303, `${base}/profile?done=1`);
  }));
  return router;
}
