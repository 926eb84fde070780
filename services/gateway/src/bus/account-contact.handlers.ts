import type { NatsConnection, Subscription } from 'nats';
import type { Logger } from 'pino';
import { serveRequests } from '@mm/bus';
import { ApiError, createAjv } from '@mm/http';
import type { AccessRepository } from '../db/access.repository';

export const ACCOUNT_CONTACT_SUBJECT = 'access.account.contact';

// Belongs in libs/contract beside the other bus payloads once it has them.
const ajv = createAjv();
const validContact = ajv.compile({
  type: 'object',
  properties: { accountId: { type: 'string', minLength: 1, maxLength: 64 } },
  required: ['accountId'],
  additionalProperties: true,
});

/**
 * `access.account.contact` {accountId} → {email, displayName}: how other services reach the
 * owner (the summary email). The gateway's `access` schema owns identity; nobody else reads it.
 * An unknown account is refused with NOT_FOUND.
 */
export function serveAccountContact(nc: NatsConnection, repo: AccessRepository, logger: Logger): Subscription[] {
  const onError = (err: unknown) => logger.error({ err }, 'access request failed');
  return [
    serveRequests(
      nc,
      ACCOUNT_CONTACT_SUBJECT,
      async (payload) => {
        if (!validContact(payload)) throw new ApiError('VALIDATION', `${ACCOUNT_CONTACT_SUBJECT}: ${ajv.errorsText(validContact.errors)}`);
        const account = await repo.getAccount((payload as { accountId: string }).accountId);
        if (!account) throw new ApiError('NOT_FOUND', 'No such account.');
        return { email: account.email, displayName: account.displayName };
      },
      onError,
    ),
  ];
}
