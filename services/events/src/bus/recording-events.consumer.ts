import type { Logger } from 'pino';
import { consume, type Bus } from '@mm/bus';
import type { EventRepository } from '../db/event.repository';
import { toNewEvent } from '../domain/feed-event';

/** Copies every public meeting event into the feed, once per event id (redeliveries are no-ops). */
export async function consumeRecordingEvents(bus: Bus, repo: EventRepository, logger: Logger): Promise<() => Promise<void>> {
  return consume(
    bus,
    {
      stream: 'RECORDINGS',
      durable: 'events',
      filterSubject: 'recordings.recording.>',
      // Inserts are serialized by a lock anyway; one at a time keeps the stream's order too.
      concurrency: 1,
      onError: (err, subject) => logger.warn({ err, subject }, 'storing an event failed; it comes back'),
    },
    async (subject, payload) => {
      const row = toNewEvent(payload);
      if (!row) {
        // Redelivery cannot fix a malformed event: logged for the operator and acked.
        logger.error({ subject }, 'dropping a malformed meeting event');
        return;
      }
      const stored = await repo.insert(row);
      logger.debug({ eventId: row.id, type: row.type, stored }, 'meeting event');
    },
  );
}
