import type { Logger } from 'pino';
import { consume, DEFAULT_MAX_DELIVER, on, type Bus } from '@mm/bus';
import { BUS } from '@mm/contract';
import type { MemoryService } from '../services/memory.service';
import type { SummaryEmailService } from '../services/summary-email.service';

/** Delay before a failed digest fact comes back; with the entry's delivery limit, about an hour of an unreachable SMTP server. */
const RETRY_DELAY_MS = 10_000;

/**
 * Each meeting's first digest (`digestCreated`): memory learns from it, then the summary email
 * goes. Both are idempotent per meeting (a learned meeting is a no-op, a sent email has its row),
 * so a redelivery, or a retry after the email failed, repeats nothing. The bus checks the fact
 * against the table; a malformed one goes to the dead letters.
 */
export async function consumeDigestCreated(
  bus: Bus,
  deps: { memory: MemoryService; summaryEmail: SummaryEmailService },
  logger: Logger,
): Promise<() => Promise<void>> {
  const lastDelivery = BUS.digestCreated.maxDeliver ?? DEFAULT_MAX_DELIVER;
  return consume(
    bus,
    [
      on(BUS.digestCreated, async (fact, { msg }) => {
        const learned = await deps.memory.learnFromDigest(fact);
        const email = await deps.summaryEmail.send(fact, { lastAttempt: msg.info.deliveryCount >= lastDelivery });
        logger.info({ recordingId: fact.recordingId, learned, email }, 'first digest handled');
      }),
    ],
    {
      durable: 'account-digests',
      concurrency: 4,
      ackWaitMs: 120_000,
      retryDelayMs: RETRY_DELAY_MS,
      onError: (err, subject) => logger.warn({ err, subject }, 'digest fact failed; it comes back'),
    },
  );
}
