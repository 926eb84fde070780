import type { NatsConnection, Subscription } from 'nats';
import type { Logger } from 'pino';
import { serveRequests } from '@mm/bus';
import type { WalletService, SpendRequest } from '../services/wallet.service';
import type { CreditKind } from '../db/schema';

/**
 * The wallet over NATS request/reply. Subjects: account.wallet.{credit,hold,capture,release,charge,summary,stale-holds}.
 * Every one is idempotent by its reference.
 */
export function serveWallet(nc: NatsConnection, wallet: WalletService, logger: Logger): Subscription[] {
  const onError = (err: unknown) => logger.error({ err }, 'wallet request failed');
  const on = <T>(verb: string, fn: (p: T) => Promise<unknown>) => serveRequests(nc, `account.wallet.${verb}`, (p) => fn(p as T), onError);
  return [
    on<{ accountId: string; minutes: number; kind: CreditKind; reference: string }>('credit', (p) => wallet.credit(p.accountId, p.minutes, p.kind, p.reference)),
    on<SpendRequest>('hold', (p) => wallet.hold(p)),
    on<{ accountId: string; reference: string; minutes?: number }>('capture', (p) => wallet.capture(p.accountId, p.reference, p.minutes)),
    on<{ accountId: string; reference: string }>('release', (p) => wallet.release(p.accountId, p.reference)),
    on<SpendRequest>('charge', (p) => wallet.chargeAsk(p)),
    on<{ accountId: string; tokenId: string | null }>('summary', (p) => wallet.summary(p.accountId, p.tokenId)),
    on<{ olderThanSeconds: number; limit?: number; after?: { createdAt: string; reference: string } }>('stale-holds', (p) =>
      wallet.staleHolds(Math.max(0, Number(p.olderThanSeconds) || 0), Math.min(500, Math.max(1, Number(p.limit) || 100)), p.after),
    ),
  ];
}
