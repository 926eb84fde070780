import type { Logger } from 'pino';
import { consume, type Bus } from '@mm/bus';
import { createAjv } from '@mm/http';
import type { SectionLike } from '../domain/digest-notes';
import type { MemoryService } from '../services/memory.service';
import type { SummaryEmailService } from '../services/summary-email.service';

export const DIGEST_CREATED_SUBJECT = 'recordings.digest.created';

/** `recordings.digest.created` as the recordings service writes it (the fields read here). */
export interface DigestCreatedFact {
  id: string;
  recordingId: string;
  accountId: string;
  title: string | null;
  displayTitle: string;
  language: string;
  sections: SectionLike[];
  speakers: { label?: string; name: string | null }[];
  recordedAt: string;
}

// Belongs in libs/contract beside the other bus payloads once it has them.
const ajv = createAjv();
const id = { type: 'string', minLength: 1, maxLength: 64 };
const validFact = ajv.compile({
  type: 'object',
  properties: {
    id,
    recordingId: id,
    accountId: id,
    title: { type: ['string', 'null'] },
    displayTitle: { type: 'string' },
    language: { type: 'string', maxLength: 16 },
    sections: { type: 'array', maxItems: 100, items: { type: 'object', properties: { kind: { type: 'string' } }, required: ['kind'] } },
    speakers: { type: 'array', maxItems: 100, items: { type: 'object', properties: { name: { type: ['string', 'null'] } }, required: ['name'] } },
    recordedAt: { type: 'string', format: 'date-time' },
  },
  required: ['id', 'recordingId', 'accountId', 'title', 'displayTitle', 'language', 'sections', 'speakers', 'recordedAt'],
  additionalProperties: true,
});

// With RETRY_DELAY_MS, about an hour of an unreachable SMTP server or gateway before an email is given up.
const RETRY_DELAY_MS = 10_000;
const MAX_DELIVERIES = 360;

/**
 * Each meeting's first digest: memory learns from it, then the summary email goes. Both are
 * idempotent per meeting (a learned meeting is a no-op, a sent email has its row), so a
 * redelivery, or a retry after the email failed, repeats nothing.
 */
export async function consumeDigestCreated(bus: Bus, deps: { memory: MemoryService; summaryEmail: SummaryEmailService }, logger: Logger): Promise<() => Promise<void>> {
  return consume(
    bus,
    {
      stream: 'RECORDINGS',
      durable: 'account-digests',
      filterSubject: 'recordings.digest.>',
      concurrency: 4,
      ackWaitMs: 120_000,
      retryDelayMs: RETRY_DELAY_MS,
      onError: (err, subject) => logger.warn({ err, subject }, 'digest fact failed; it comes back'),
    },
    async (subject, payload, msg) => {
      if (subject !== DIGEST_CREATED_SUBJECT) return;
      if (!validFact(payload)) {
        // A malformed fact will not get better by redelivery; acked and logged for the operator.
        logger.error({ subject, problem: ajv.errorsText(validFact.errors) }, 'dropping a malformed digest fact');
        return;
      }
      const fact = payload as unknown as DigestCreatedFact;
      const learned = await deps.memory.learnFromDigest(fact);
      const email = await deps.summaryEmail.send(fact, { lastAttempt: msg.info.redeliveryCount >= MAX_DELIVERIES });
      logger.info({ recordingId: fact.recordingId, learned, email }, 'first digest handled');
    },
  );
}
