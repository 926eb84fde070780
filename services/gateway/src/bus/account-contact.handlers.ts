import type { NatsConnection, Subscription } from 'nats';
import type { Logger } from 'pino';
import { serve } from '@mm/bus';
import { BUS } from '@mm/contract';
import { ApiError } from '@mm/http';
import type { AccessRepository } from '../db/access.repository';

/**
 * `accountContact` {accountId} → {email, displayName}: how other services reach the owner (the
 * summary email). The gateway's `access` schema owns identity; nobody else reads it. An unknown
 * account is refused with NOT_FOUND.
 */
export function serveAccountContact(nc: NatsConnection, repo: AccessRepository, logger: Logger): Subscription[] {
  const onError = (err: unknown) => logger.error({ err }, 'access request failed');
  return [
    serve(
      nc,
      BUS.accountContact,
      async ({ accountId }) => {
        const account = await repo.getAccount(accountId);
        if (!account) throw new ApiError('NOT_FOUND', 'No such account.');
        return { email: account.email, displayName: account.displayName };
      },
      onError,
    ),
  ];
}
