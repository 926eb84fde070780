import { Router } from 'express';
import { hasScope, principalOf, sendOk, validateOperation } from '@mm/http';
import type { WalletService } from '../services/wallet.service';

/** GET /whoami: the Token info resource. */
export function whoamiRoutes(deps: { wallet: WalletService; uploadLimits: { maxUploadMb: number; maxRecordingMinutes: number } }): Router {
  const router = Router();
  router.get('/whoami', validateOperation('whoami'), async (_req, res) => {
    const p = principalOf(res);
    const summary = await deps.wallet.summary(p.accountId, p.tokenId);
    sendOk(res, {
      owner: { type: 'user', id: p.accountId, displayName: p.displayName },
      token: {
        id: p.tokenId,
        name: p.tokenName,
        scopes: p.scopes,
        dailyMinuteCap: p.dailyMinuteCap,
        usedMinutes24h: summary.usedMinutes24h,
        expiresAt: p.tokenExpiresAt,
      },
      wallet: hasScope(p, 'account:read') ? { balanceMinutes: summary.balanceMinutes } : null,
      limits: deps.uploadLimits,
    });
  });
  return router;
}
