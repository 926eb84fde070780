import { Router, type Response } from 'express';
import type { GetAccountOutput } from '@mm/contract';
import { principalOf, mountOperation } from '@mm/http';
import { settingsPatchOf, type AccountSettings } from '../domain/settings';
import type { SettingsService } from '../services/settings.service';
import type { WalletService } from '../services/wallet.service';

export interface AccountRouteDeps {
  wallet: WalletService;
  settings: SettingsService;
}

/** The Account resource: owner from the principal (never phone or email), wallet and settings. */
async function accountOf(res: Response, deps: AccountRouteDeps, settings?: AccountSettings): Promise<GetAccountOutput> {
  const p = principalOf(res);
  const [summary, current] = await Promise.all([
    deps.wallet.summary(p.accountId, null),
    settings ?? deps.settings.settings(p.accountId),
  ]);
  return {
    owner: { type: 'user', id: p.accountId, displayName: p.displayName },
    wallet: { balanceMinutes: summary.balanceMinutes },
    settings: current,
  };
}

/** GET /account and PATCH /account/settings. */
export function accountRoutes(deps: AccountRouteDeps): Router {
  const router = Router();
  mountOperation(router, 'getAccount', async (_input, { res }) => accountOf(res, deps));
  mountOperation(router, 'updateAccountSettings', async ({ body }, { res }) => {
    const patch = settingsPatchOf(body);
    // The schema already refuses an empty body; this guards the write should it ever change.
    if (!patch) throw new Error('updateAccountSettings reached the handler with nothing to change');
    return accountOf(res, deps, await deps.settings.update(principalOf(res).accountId, patch));
  });
  return router;
}
