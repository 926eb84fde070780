import { Router } from 'express';
import { APP_PURCHASE_KEY_PATTERN, APP_PURCHASE_PACKS } from '@mm/contract';
import { ApiError, appPrincipalOnly, mountOperation, principalOf } from '@mm/http';
import type { AccountConfig } from '../config';
import type { SettingsService } from '../services/settings.service';
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema';
import type { WalletService } from '../services/wallet.service';

const PURCHASE_KEY = new RegExp(APP_PURCHASE_KEY_PATTERN);

/**
 * GET and PATCH /app/settings: the app's own settings page (services/web, for the signed-in owner).
 * Unlike updateAccountSettings it also sets uiLocale and deleteAudioAfterDigest, which the contract
 * keeps to the app (GET /account never shows the latter); only an `app` principal reaches it.
 */
export function appSettingsRoutes(deps: { settings: SettingsService }): Router {
  const router = Router();
  mountOperation(
    router,
    'appGetSettings',
    async (_input, { res }) => ({ settings: await deps.settings.appSettings(principalOf(res).accountId) }),
    { guards: [appPrincipalOnly] },
  );
  mountOperation(
    router,
    'appUpdateSettings',
    async ({ body }, { res }) => ({ settings: await deps.settings.updateApp(principalOf(res).accountId, body) }),
    { guards: [appPrincipalOnly] },
  );
  return router;
}

/**
 * GET /app/wallet: the app's wallet page (balance, minutes held by meetings in progress, recent
 * entries, the packs on sale); POST /app/wallet/purchases: a pack bought, where this install sells
 * them. The purchase's ledger reference is the form's key, so a form sent twice credits once.
 */
export function appWalletRoutes(deps: {
  wallet: WalletService;
  db: Kysely<Database>;
  purchases: AccountConfig['appPurchases'];
}): Router {
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
        purchasePacks: deps.purchases === 'direct' ? [...APP_PURCHASE_PACKS] : [],
      };
    },
    { guards: [appPrincipalOnly] },
  );
  mountOperation(
    router,
    'appBuyMinutes',
    async ({ body, headers }, { res }) => {
      if (deps.purchases !== 'direct') throw new ApiError('NOT_FOUND', 'Minutes are not sold in the app here.');
      const { accountId } = principalOf(res);
      // The shared layer reads header parameters without checking them: the key is checked here.
      const key = headers['idempotency-key'];
      if (typeof key !== 'string' || !PURCHASE_KEY.test(key))
        throw new ApiError(
          'VALIDATION',
          'Idempotency-Key: the purchase form names itself by 16 to 64 letters, digits, - or _.',
        );
      return deps.wallet.credit(accountId, body.minutes, 'purchase', `app:purchase:${accountId}:${key}`);
    },
    { guards: [appPrincipalOnly] },
  );
  return router;
}
