import { JSONCodec } from 'nats';
import type { StreamEntry } from '@mm/contract';
import type { Bus } from './connection';
import { check, strictSending, subjectFor, versionHeaders } from './table';

const codec = JSONCodec<unknown>();

/**
 * Publishes a fact or job straight to its stream, checked against the table, with `msgID` as its
 * identity (JetStream drops a second publish of it). Services publish through their outbox
 * (`enqueue`), so that a fact commits with the change it reports; this is for operators and tests.
 */
export async function publish<P>(bus: Bus, entry: StreamEntry<P>, payload: P, msgID: string): Promise<void> {
  try {
    check(entry, 'payload', payload);
  } catch (err) {
    if (strictSending()) throw err;
  }
  await bus.js.publish(bus.namespace + subjectFor(entry, payload), codec.encode(payload), {
    msgID,
    headers: versionHeaders(entry.version),
  });
}
