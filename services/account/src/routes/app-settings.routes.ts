import { Router } from 'express';
import { NAMING_MODES, UI_LOCALES } from '@mm/contract';
import { ApiError, createAjv, describeSchemaError, principalOf, sendOk } from '@mm/http';
import type { AccountSettings } from '../domain/settings';
import type { SettingsService } from '../services/settings.service';
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema';
import type { WalletService } from '../services/wallet.service';

const ajv = createAjv();
const validPatch = ajv.compile({
  type: 'object',
  properties: {
    uiLocale: { enum: [...UI_LOCALES] },
    speakerNamingMode: { enum: [...NAMING_MODES] },
    memoryLearningEnabled: { type: 'boolean' },
    summaryEmailEnabled: { type: 'boolean' },
  },
  minProperties: 1,
  additionalProperties: false,
});

/**
 * PATCH /app/settings: the app's own settings change (services/web, for the signed-in owner).
 * Unlike updateAccountSettings it also sets uiLocale, which the contract keeps to the app; only an
 * `app` principal reaches it.
 */
export function appSettingsRoutes(deps: { settings: SettingsService }): Router {
  const router = Router();
  router.patch('/app/settings', async (req, res, next) => {
    try {
      const p = principalOf(res);
      if (p.source !== 'app') throw new ApiError('TOKEN_NOT_ACCEPTED', 'This route does not take API tokens.');
      if (!validPatch(req.body)) throw new ApiError('VALIDATION', describeSchemaError('', validPatch.errors![0]));
      const settings = await deps.settings.update(p.accountId, req.body as Partial<AccountSettings>);
      sendOk(res, { settings });
    } catch (err) {
      next(err);
    }
  });
  return router;
}

/** GET /app/wallet: the app's wallet page (balance, minutes held by meetings in progress, recent entries). */
export function appWalletRoutes(deps: { wallet: WalletService; db: Kysely<Database> }): Router {
  const router = Router();
  router.get('/app/wallet', async (_req, res, next) => {
    try {
      const p = principalOf(res);
      if (p.source !== 'app') throw new ApiError('TOKEN_NOT_ACCEPTED', 'This route does not take API tokens.');
      const [figures, rows] = await Promise.all([
        deps.wallet.summary(p.accountId, null),
        deps.db.selectFrom('ledgerEntry').select(['kind', 'creditKind', 'minutes', 'createdAt']).where('accountId', '=', p.accountId).orderBy('createdAt', 'desc').limit(20).execute(),
      ]);
      sendOk(res, {
        balanceMinutes: figures.balanceMinutes,
        heldMinutes: figures.balanceMinutes - figures.availableMinutes,
        entries: rows.map((r) => ({ kind: r.kind, creditKind: r.creditKind, minutes: r.minutes, createdAt: r.createdAt.toISOString() })),
      });
    } catch (err) {
      next(err);
    }
  });
  return router;
}
