import type { Logger } from 'pino';
import { consume, on, type Bus } from '@mm/bus';
import { BUS } from '@mm/contract';
import type { EventRepository } from '../db/event.repository';
import { toNewEvent } from '../domain/feed-event';

/**
 * Copies every public meeting event into the feed, once per event id (redeliveries are no-ops),
 * one at a time across every replica so the feed keeps the stream's order.
 */
export async function consumeRecordingEvents(bus: Bus, repo: EventRepository, logger: Logger): Promise<() => Promise<void>> {
  return consume(
    bus,
    [
      on(BUS.recordingEvent, async (event) => {
        const row = toNewEvent(event);
        const stored = await repo.insert(row);
        logger.debug({ eventId: row.id, type: row.type, stored }, 'meeting event');
      }),
    ],
    {
      durable: 'events',
      ordered: true,
      onError: (err, subject) => logger.warn({ err, subject }, 'storing an event failed; it comes back'),
    },
  );
}
