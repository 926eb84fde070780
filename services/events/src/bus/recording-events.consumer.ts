import type { Logger } from 'pino';
import { consume, NotYet, on, type Bus } from '@mm/bus';
import { BUS } from '@mm/contract';
import type { EventRepository } from '../db/event.repository';
import { toNewEvent } from '../domain/feed-event';

/**
 * Copies every public meeting event into the feed, once per event id (redeliveries are no-ops),
 * and each meeting's events in the order its changes happened: an event whose predecessor (by the
 * `meetingSeq` recordings stamps) is not stored yet waits for it, whatever order the bus brings
 * them in (a message held by a crashed instance comes back after the ack wait, a dead letter is
 * replayed late). Several at a time: the order comes from the stamp, not from delivery.
 * `orderWaitMs`: how long an event waits for its predecessor (from when it entered the stream)
 * before it is stored anyway; longer than the ack wait (60 s), so that an event held by a crashed
 * instance comes back in time. `retryInMs`: between two looks.
 */
export async function consumeRecordingEvents(
  bus: Bus,
  repo: EventRepository,
  logger: Logger,
  order: { orderWaitMs: number; retryInMs?: number },
): Promise<() => Promise<void>> {
  return consume(
    bus,
    [
      on(BUS.recordingEvent, async (event, { msg }) => {
        const row = toNewEvent(event);
        const waitedMs = Date.now() - msg.info.timestampNanos / 1e6;
        const outcome = await repo.insert(row, { waitForEarlier: waitedMs < order.orderWaitMs });
        if (outcome.waiting)
          throw new NotYet(
            `event ${event.meetingSeq} of ${event.recordingId} waits for the one before it`,
            order.retryInMs ?? 1000,
          );
        if (outcome.gap) {
          logger.warn(
            { eventId: row.id, recordingId: row.recordingId, meetingSeq: row.meetingSeq, waitedMs },
            'stored a meeting event whose predecessor never came (lost, or parked in the dead letters)',
          );
        }
        logger.debug({ eventId: row.id, type: row.type, stored: outcome.stored }, 'meeting event');
      }),
    ],
    {
      durable: 'events',
      concurrency: 4,
      // Set, so the durable an older release made with max_ack_pending 1 is widened on upgrade: a
      // waiting event must not stop the messages behind it.
      maxAckPending: 256,
      onError: (err, subject) => logger.warn({ err, subject }, 'storing an event failed; it comes back'),
    },
  );
}
