import { Router } from 'express';
import { appPrincipalOnly, mountOperation, principalOf } from '@mm/http';
import type { SettingsService } from '../services/settings.service';
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema';
import type { WalletService } from '../services/wallet.service';

/**
 * PATCH /app/settings: the app's own settings change (services/web, for the signed-in owner).
 * Unlike updateAccountSettings it also sets uiLocale, which the contract keeps to the app; only an
 * `app` principal reaches it.
 */
export function appSettingsRoutes(deps: { settings: SettingsService }): Router {
  const router = Router();
  mountOperation(
    router,
    'appUpdateSettings',
    async ({ body }, { res }) => ({ settings: await deps.settings.update(principalOf(res).accountId, body) }),
    {
      guards: [appPrincipalOnly],
    },
  );
  return router;
}

/** GET /app/wallet: the app's wallet page (balance, minutes held by meetings in progress, recent entries). */
export function appWalletRoutes(deps: { wallet: WalletService; db: Kysely<Database> }): Router {
  const router = Router();
  mountOperation(
    router,
    'appGetWallet',
    async (_input, { res }) => {
      const p = principalOf(res);
      const [figures, rows] = await Promise.all([
        deps.wallet.summary(p.accountId, null),
        deps.db
          .selectFrom('ledgerEntry')
          .select(['kind', 'creditKind', 'minutes', 'createdAt'])
          .where('accountId', '=', p.accountId)
          .orderBy('createdAt', 'desc')
          .limit(20)
          .execute(),
      ]);
      return {
        balanceMinutes: figures.balanceMinutes,
        heldMinutes: figures.balanceMinutes - figures.availableMinutes,
        entries: rows.map((r) => ({
          kind: r.kind,
          creditKind: r.creditKind,
          minutes: r.minutes,
          createdAt: r.createdAt.toISOString(),
        })),
      };
    },
    { guards: [appPrincipalOnly] },
  );
  return router;
}
