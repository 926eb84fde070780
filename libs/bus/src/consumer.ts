import { AckPolicy, DeliverPolicy, JSONCodec, type JsMsg } from 'nats';
import { streamName, type Bus } from './connection';

const codec = JSONCodec<unknown>();

export interface ConsumeOptions {
  stream: string;
  /** Durable name: one per consuming service (replicas share it). */
  durable: string;
  /** One subject filter (NATS 2.9, which the machine runs, takes one per consumer). */
  filterSubject: string;
  /** How many messages are handled at once. */
  concurrency?: number;
  /** How long a handler may run before the message is redelivered. */
  ackWaitMs?: number;
  /** Delay before a failed message comes back. */
  retryDelayMs?: number;
  onError: (err: unknown, subject: string) => void;
}

/**
 * Runs a durable pull consumer: each message is handled, then acked after the handler's commit;
 * a failure naks with a delay so the message returns. Handlers must be idempotent (delivery is
 * at least once). Returns a stop function.
 */
export async function consume(bus: Bus, opts: ConsumeOptions, handler: (subject: string, payload: unknown, msg: JsMsg) => Promise<void>): Promise<() => Promise<void>> {
  const ackWaitNs = (opts.ackWaitMs ?? 60_000) * 1e6;
  const stream = streamName(bus.namespace, opts.stream);
  const filterSubject = bus.namespace + opts.filterSubject;
  const config = {
    durable_name: opts.durable,
    ack_policy: AckPolicy.Explicit,
    deliver_policy: DeliverPolicy.All,
    filter_subject: filterSubject,
    ack_wait: ackWaitNs,
    max_deliver: -1,
  };
  try {
    await bus.jsm.consumers.add(stream, config);
  } catch {
    await bus.jsm.consumers.update(stream, opts.durable, { filter_subject: filterSubject, ack_wait: ackWaitNs });
  }
  const consumer = await bus.js.consumers.get(stream, opts.durable);
  const concurrency = opts.concurrency ?? 4;
  const messages = await consumer.consume({ max_messages: concurrency });
  const running = new Set<Promise<void>>();
  const loop = (async () => {
    for await (const m of messages) {
      const work = (async () => {
        const working = setInterval(() => m.working(), Math.max(1000, (opts.ackWaitMs ?? 60_000) / 3));
        try {
          await handler(m.subject.slice(bus.namespace.length), codec.decode(m.data), m);
          m.ack();
        } catch (err) {
          opts.onError(err, m.subject);
          m.nak(opts.retryDelayMs ?? 2000);
        } finally {
          clearInterval(working);
        }
      })();
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
