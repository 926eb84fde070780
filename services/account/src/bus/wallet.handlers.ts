import type { NatsConnection, Subscription } from 'nats';
import type { Logger } from 'pino';
import { serve } from '@mm/bus';
import { BUS } from '@mm/contract';
import type { WalletService } from '../services/wallet.service';

/** The wallet over NATS request/reply. Every move is idempotent by its reference. */
export function serveWallet(nc: NatsConnection, wallet: WalletService, logger: Logger): Subscription[] {
  const onError = (err: unknown) => logger.error({ err }, 'wallet request failed');
  return [
    serve(nc, BUS.walletCredit, (p) => wallet.credit(p.accountId, p.minutes, p.kind, p.reference), onError),
    serve(nc, BUS.walletHold, (p) => wallet.hold(p), onError),
    serve(nc, BUS.walletCapture, (p) => wallet.capture(p.accountId, p.reference, p.minutes), onError),
    serve(nc, BUS.walletRelease, (p) => wallet.release(p.accountId, p.reference), onError),
    serve(nc, BUS.walletCharge, (p) => wallet.chargeAsk(p), onError),
    serve(nc, BUS.walletStaleHolds, (p) => wallet.staleHolds(p.olderThanSeconds, p.limit ?? 100, p.after), onError),
  ];
}
