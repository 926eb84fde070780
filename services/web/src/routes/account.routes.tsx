import express, { Router, type Request } from 'express';
import { randomUUID } from 'node:crypto';
import { APP_PURCHASE_KEY_PATTERN, APP_PURCHASE_PACKS, NAMING_MODES, UI_LOCALES } from '@mm/contract';
import { signedIn, sendPage, q, type PageDeps } from './context';
import { BackendError } from '../services/backend.client';
import { refusalText } from '../views/auth.views';
import { KeytermsView, MemoryView, ProfileView, SettingsView, WalletView } from '../views/account.views';

const PURCHASE_KEY = new RegExp(APP_PURCHASE_KEY_PATTERN);
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

  router.get(
    '/wallet',
    signedIn(deps, async (req, res, ctx) => {
      const w = await backend.operation('appGetWallet', ctx.principal);
      const bought = Number(q(req, 'bought', 8));
      // The form's key is made with the page: the page is never kept, or a later purchase would repeat it.
      res.setHeader('Cache-Control', 'no-store');
      sendPage(
        res,
        ctx,
        ctx.s.t.walletTitle,
        <WalletView
          s={ctx.s}
          base={base}
          viewer={ctx.viewer}
          w={w}
          purchaseKey={randomUUID()}
          notice={Number.isInteger(bought) && bought > 0 ? ctx.s.f('bought', { n: ctx.s.number(bought) }) : null}
        />,
      );
    }),
  );
  router.post(
    '/wallet/buy',
    form,
    signedIn(deps, async (req, res, ctx) => {
      const minutes = APP_PURCHASE_PACKS.find((n) => String(n) === field(req, 'minutes', 8));
      const key = field(req, 'purchaseKey', 64);
      // A form not made by the wallet page (no pack, no key): the page again, nothing bought.
      if (!minutes || !PURCHASE_KEY.test(key)) return void res.redirect(303, `${base}/wallet`);
      try {
        await backend.operation('appBuyMinutes', ctx.principal, {
          headers: { 'idempotency-key': key },
          body: { minutes },
        });
      } catch (err) {
        // Not sold here (the operator adds minutes): the wallet says so; nothing was bought.
        refusal(err);
        return void res.redirect(303, `${base}/wallet`);
      }
      res.redirect(303, `${base}/wallet?bought=${minutes}`);
    }),
  );

  router.get(
    '/settings',
    signedIn(deps, async (req, res, ctx) => {
      const { settings } = await backend.operation('appGetSettings', ctx.principal);
      sendPage(
        res,
        ctx,
        ctx.s.t.settingsTitle,
        <SettingsView
          s={ctx.s}
          base={base}
          viewer={ctx.viewer}
          settings={settings}
          notice={q(req, 'done') ? ctx.s.t.saved : null}
        />,
      );
    }),
  );
  router.post(
    '/settings',
    form,
    signedIn(deps, async (req, res, ctx) => {
      const mode = field(req, 'speakerNamingMode', 20);
      const locale = field(req, 'uiLocale', 5);
      const namingMode = NAMING_MODES.find((m) => m === mode);
      const uiLocale = UI_LOCALES.find((l) => l === locale);
      await backend.operation('appUpdateSettings', ctx.principal, {
        body: {
          ...(namingMode ? { speakerNamingMode: namingMode } : {}),
          ...(uiLocale ? { uiLocale } : {}),
          summaryEmailEnabled: field(req, 'summaryEmailEnabled', 5) === 'true',
          memoryLearningEnabled: field(req, 'memoryLearningEnabled', 5) === 'true',
          deleteAudioAfterDigest: field(req, 'deleteAudioAfterDigest', 5) === 'true',
        },
      });
      res.redirect(303, `${base}/settings?done=1`);
    }),
  );

  const showKeyterms = async (
    res: express.Response,
    ctx: Parameters<Parameters<typeof signedIn>[1]>[2],
    over: { text?: string; error?: string | null; notice?: string | null },
    status = 200,
  ) => {
    const text = over.text ?? (await backend.operation('getAccountKeyterms', ctx.principal)).keyterms.join('\n');
    sendPage(
      res,
      ctx,
      ctx.s.t.keytermsTitle,
      <KeytermsView s={ctx.s} base={base} viewer={ctx.viewer} text={text} error={over.error} notice={over.notice} />,
      status,
    );
  };
  router.get(
    '/keyterms',
    signedIn(deps, async (req, res, ctx) => showKeyterms(res, ctx, { notice: q(req, 'done') ? ctx.s.t.saved : null })),
  );
  router.post(
    '/keyterms',
    form,
    signedIn(deps, async (req, res, ctx) => {
      const text = field(req, 'keyterms', 6000);
      const keyterms = text
        .split(/\r?\n/)
        .map((x) => x.trim())
        .filter(Boolean);
      try {
        await backend.operation('replaceAccountKeyterms', ctx.principal, { body: { keyterms } });
        res.redirect(303, `${base}/keyterms?done=1`);
      } catch (err) {
        // The service's message names the first broken term (the contract's rule): said beside the list.
        const { detail } = refusal(err);
        const error = detail ? ctx.s.f('notSavedBecause', { message: detail }) : ctx.s.t.errorGeneric;
        await showKeyterms(res, ctx, { text, error }, 400);
      }
    }),
  );

  const showMemory = async (
    res: express.Response,
    ctx: Parameters<Parameters<typeof signedIn>[1]>[2],
    over: { error?: string | null; notice?: string | null },
    status = 200,
  ) => {
    const m = await backend.operation('listMemory', ctx.principal);
    sendPage(
      res,
      ctx,
      ctx.s.t.memoryTitle,
      <MemoryView s={ctx.s} base={base} viewer={ctx.viewer} m={m} error={over.error} notice={over.notice} />,
      status,
    );
  };
  router.get(
    '/memory',
    signedIn(deps, async (req, res, ctx) => showMemory(res, ctx, { notice: q(req, 'done') ? ctx.s.t.saved : null })),
  );
  for (const del of [false, true]) {
    router.post(
      del ? '/memory/:id/delete' : '/memory/:id',
      form,
      signedIn(deps, async (req, res, ctx) => {
        const params = { id: String(req.params.id) };
        try {
          if (del) await backend.operation('deleteMemoryItem', ctx.principal, { params });
          else
            await backend.operation('updateMemoryItem', ctx.principal, {
              params,
              body: { text: field(req, 'text', 1001) },
            });
          res.redirect(303, `${base}/memory?done=1`);
        } catch (err) {
          refusal(err);
          await showMemory(res, ctx, { error: ctx.s.t.errorGeneric }, 400);
        }
      }),
    );
  }

  router.get(
    '/profile',
    signedIn(deps, async (req, res, ctx) => {
      const { account } = await backend.operation('appGetAccess', ctx.principal);
      const done = q(req, 'done');
      const notice =
        done === 'password'
          ? ctx.s.t.passwordChanged
          : done === 'email'
            ? ctx.s.t.emailChanged
            : done
              ? ctx.s.t.saved
              : null;
      sendPage(
        res,
        ctx,
        ctx.s.t.profileTitle,
        <ProfileView
          s={ctx.s}
          base={base}
          viewer={ctx.viewer}
          displayName={account.displayName}
          email={account.email}
          notice={notice}
          error={refusalText(ctx.s.t, q(req, 'error'))}
        />,
      );
    }),
  );
  router.post(
    '/profile',
    form,
    signedIn(deps, async (req, res, ctx) => {
      await backend.operation('appUpdateProfile', ctx.principal, {
        body: { displayName: field(req, 'displayName', 200) },
      });
      res.redirect(303, `${base}/profile?done=1`);
    }),
  );
  return router;
}
