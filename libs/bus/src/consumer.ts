import { AckPolicy, DeliverPolicy, JSONCodec, type JsMsg } from 'nats';
import { BUS_CONSUMERS, type StreamEntry } from '@mm/contract';
import { contextOf, streamName, type Bus } from './connection';
import { sendToDeadLetters, type DeadLetterFacts } from './dead-letters';
import { BusContractError, check, entryOfSubject, versionOf } from './table';

const codec = JSONCodec<unknown>();

/** Deliveries of a fact or job before it goes to the dead letters, unless its entry says otherwise. */
export const DEFAULT_MAX_DELIVER = 50;

/**
 * Thrown by a handler when its message must wait for another one (a meeting's earlier event not
 * yet handled): the message comes back after `retryInMs`, and the wait does not count against
 * the delivery limit (the handler itself decides how long it waits).
 */
export class NotYet extends Error {
  constructor(
    message: string,
    readonly retryInMs = 1000,
  ) {
    super(message);
  }
}

export interface ConsumeOptions {
  /** Durable name: one per consuming service (replicas share it). */
  durable: string;
  /** How many messages are handled at once (by this replica). */
  concurrency?: number;
  /**
   * One message at a time across every replica (max_ack_pending 1): the stream's order is kept
   * when the service runs several replicas (the events feed).
   */
  ordered?: boolean;
  /**
   * At most this many messages delivered and not yet acked, across every replica (max_ack_pending).
   * Set it to `concurrency` when handlers may wait long: the client otherwise keeps pulling, and a
   * message it holds but has not started is never heartbeated, so it comes back after the ack wait.
   */
  maxAckPending?: number;
  /** How long a handler may run before the message is redelivered. */
  ackWaitMs?: number;
  /** Delay before a failed message comes back. */
  retryDelayMs?: number;
  /** Deliveries before a failing message goes to the dead letters, when not the entry's own (tests, operators). */
  maxDeliver?: number;
  onError: (err: unknown, subject: string) => void;
}

export interface Delivery {
  subject: string;
  version: number;
  msg: JsMsg;
}

/** One entry a consumer reads, with its handler. */
export interface Route<P> {
  entry: StreamEntry<P>;
  handle: (payload: P, delivery: Delivery) => Promise<void>;
}

/** Pairs an entry with its handler, the payload typed by the table. */
export const on = <P>(entry: StreamEntry<P>, handle: (payload: P, delivery: Delivery) => Promise<void>): Route<P> => ({
  entry,
  handle,
});

/**
 * Runs a durable pull consumer over one or more entries of the same stream (one subject filter:
 * the entries' common prefix). Each message is checked against its entry (a message that does
 * not follow it goes to the dead letters at once: redelivery cannot fix it), handled, then acked
 * after the handler's commit; a failure naks with a delay so the message returns, until the
 * entry's delivery limit sends it to the dead letters. Handlers must be idempotent (delivery is
 * at least once). Returns a stop function.
 */
export async function consume(
  bus: Bus,
  routes: readonly Route<any>[],
  opts: ConsumeOptions,
): Promise<() => Promise<void>> {
  const entries = routes.map((r) => r.entry);
  const stream = entries[0].stream;
  // The broker grants a service its own durables only (BUS_CONSUMERS): say so here, not as a timeout there.
  const listed = BUS_CONSUMERS.find((c) => c.durable === opts.durable && c.service === bus.service);
  if (bus.service !== 'operator' && (!listed || entries.some((e) => !listed.entries.includes(e)))) {
    throw new Error(
      `${opts.durable}: not a durable of ${bus.service} reading these entries in the bus table (BUS_CONSUMERS)`,
    );
  }
  if (entries.some((e) => e.stream !== stream)) throw new Error(`${opts.durable}: one consumer reads one stream`);
  const ackWaitMs = opts.ackWaitMs ?? 60_000;
  const ackWaitNs = ackWaitMs * 1e6;
  const filterSubject =
    bus.namespace +
    (entries.length === 1 && entries[0].consumerFilter
      ? entries[0].consumerFilter
      : commonFilter(entries.map((e) => e.subject)));
  const jsStream = streamName(bus.namespace, stream);
  const maxAckPending = opts.ordered ? 1 : opts.maxAckPending;
  const limits = maxAckPending ? { max_ack_pending: maxAckPending } : {};
  const config = {
    durable_name: opts.durable,
    ack_policy: AckPolicy.Explicit,
    deliver_policy: DeliverPolicy.All,
    filter_subject: filterSubject,
    ack_wait: ackWaitNs,
    max_deliver: -1,
    ...limits,
  };
  try {
    await bus.jsm.consumers.add(jsStream, config);
  } catch {
    await bus.jsm.consumers.update(jsStream, opts.durable, {
      filter_subject: filterSubject,
      ack_wait: ackWaitNs,
      ...limits,
    });
  }
  const consumer = await bus.js.consumers.get(jsStream, opts.durable);
  const concurrency = opts.ordered ? 1 : (opts.concurrency ?? 4);
  const messages = await consumer.consume({ max_messages: concurrency });
  const running = new Set<Promise<void>>();
  const counters = contextOf(bus.nc).counters;
  const deadLetter = async (m: JsMsg, subject: string, reason: DeadLetterFacts['reason'], problem: string) => {
    counters.deadLetters.inc({ subject, reason });
    await sendToDeadLetters(bus, m, { subject, reason, problem, consumer: opts.durable, stream });
    m.term();
  };
  const handle = async (m: JsMsg) => {
    const subject = m.subject.slice(bus.namespace.length);
    const route = routes.find((r) => r.entry === entryOfSubject(subject));
    const entry = route?.entry;
    const version = versionOf(m.headers);
    let payload: unknown;
    try {
      if (!entry) throw new BusContractError(subject, `no entry of this consumer (${opts.durable}) has this subject`);
      try {
        payload = codec.decode(m.data);
      } catch {
        throw new BusContractError(subject, 'the payload is not JSON');
      }
      check(entry, 'payload', payload, version);
    } catch (err) {
      counters.invalid.inc({ subject, direction: 'in' });
      opts.onError(err, subject);
      return deadLetter(m, subject, 'invalid', (err as Error).message);
    }
    const working = setInterval(() => m.working(), Math.max(1000, ackWaitMs / 3));
    try {
      await route!.handle(payload, { subject, version, msg: m });
      m.ack();
    } catch (err) {
      if (err instanceof NotYet) return m.nak(err.retryInMs);
      opts.onError(err, subject);
      if (m.info.deliveryCount >= (opts.maxDeliver ?? entry!.maxDeliver ?? DEFAULT_MAX_DELIVER))
        return deadLetter(m, subject, 'failed', String((err as Error)?.message ?? err));
      m.nak(opts.retryDelayMs ?? 2000);
    } finally {
      clearInterval(working);
    }
  };
  const loop = (async () => {
    for await (const m of messages) {
      const work = handle(m).catch((err) => {
        // The dead-letter stream itself refused: the message comes back later.
        opts.onError(err, m.subject);
        m.nak(opts.retryDelayMs ?? 2000);
      });
      running.add(work);
      void work.finally(() => running.delete(work));
      if (running.size >= concurrency) await Promise.race(running);
    }
  })();
  return async () => {
    await messages.close();
    await loop.catch(() => undefined);
    await Promise.allSettled([...running]);
  };
}

/** The one subject filter that covers the entries (NATS 2.9, which the machine runs, takes one per consumer). */
function commonFilter(subjects: string[]): string {
  if (subjects.length === 1) return subjects[0];
  const split = subjects.map((s) => s.split('.'));
  const common: string[] = [];
  for (let i = 0; split.every((p) => i < p.length - 1 && p[i] === split[0][i] && p[i] !== '>'); i++)
    common.push(split[0][i]);
  if (!common.length) throw new Error(`no common subject prefix: ${subjects.join(', ')}`);
  return `${common.join('.')}.>`;
}
