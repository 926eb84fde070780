import type { IncomingMessage } from 'node:http';
import type { Logger } from 'pino';
import { serviceCounter } from '@mm/http';
import { addressBucket, clientAddress, type TrustedProxies } from '../domain/client-address';

const untrustedForwards = () =>
  serviceCounter(
    'gateway',
    'gateway_forwarded_for_untrusted_total',
    'Requests that carried X-Forwarded-For while TRUSTED_PROXIES is unset: every client behind that proxy shares its address and budgets',
  );

/**
 * The client's address of each request (domain/client-address.ts), and the key its budgets are
 * counted under. X-Forwarded-For arriving while no proxy is trusted is said once in the log and
 * counted in /metrics: behind a proxy, that setting makes every client one address, so one
 * client's flood limits them all; the operator learns it before the first refusal.
 */
export class ClientAddresses {
  private warned = false;

  constructor(
    private readonly trusted: TrustedProxies,
    private readonly logger: Logger,
    private readonly v6Prefix: number,
  ) {
    if (trusted.empty) untrustedForwards();
  }

  /** The client's address of a request (only its peer and X-Forwarded-For are read). */
  of(req: Pick<IncomingMessage, 'headers'> & { socket: { remoteAddress?: string } }): string {
    const forwardedFor = req.headers['x-forwarded-for'];
    if (forwardedFor !== undefined && this.trusted.empty) this.untrustedForward();
    return clientAddress(req.socket.remoteAddress, forwardedFor, this.trusted);
  }

  /** The key the address's budgets are counted under (IPv6 by its network: IPV6_BUDGET_PREFIX). */
  budgetKey(address: string): string {
    return addressBucket(address, this.v6Prefix);
  }

  private untrustedForward(): void {
    untrustedForwards().inc();
    if (this.warned) return;
    this.warned = true;
    this.logger.warn(
      "requests carry X-Forwarded-For but TRUSTED_PROXIES is unset: every client behind the proxy counts as the proxy's one address " +
        "(one rate budget for all); set TRUSTED_PROXIES to the proxy's addresses (metric gateway_forwarded_for_untrusted_total)",
    );
  }
}
