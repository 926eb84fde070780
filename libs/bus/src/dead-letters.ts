import { headers as natsHeaders, JSONCodec, type JsMsg, type MsgHdrs } from 'nats';
import { streamName, type Bus } from './connection';

const codec = JSONCodec<unknown>();

/** Headers a dead letter carries beside the original message's own. */
export const DEAD_HEADERS = {
  subject: 'Mm-Dead-Subject',
  reason: 'Mm-Dead-Reason',
  problem: 'Mm-Dead-Problem',
  consumer: 'Mm-Dead-Consumer',
  stream: 'Mm-Dead-Stream',
  deliveries: 'Mm-Dead-Deliveries',
  at: 'Mm-Dead-At',
} as const;

export interface DeadLetterFacts {
  /** The logical subject (no namespace). */
  subject: string;
  /** `invalid` (does not follow the bus table), `failed` (more deliveries than its limit), `refused` (JetStream refused an outbox row). */
  reason: 'invalid' | 'failed' | 'refused';
  problem: string;
  consumer: string;
  stream: string;
}

const oneLine = (s: string) => s.replace(/[\r\n]+/g, ' ').slice(0, 500);

function deadHeaders(original: MsgHdrs | undefined, facts: DeadLetterFacts, deliveries: number): MsgHdrs {
  const h = natsHeaders();
  if (original) for (const [k, values] of original) if (!k.startsWith('Mm-Dead-') && k !== 'Nats-Msg-Id') for (const v of values) h.append(k, v);
  h.set(DEAD_HEADERS.subject, facts.subject);
  h.set(DEAD_HEADERS.reason, facts.reason);
  h.set(DEAD_HEADERS.problem, oneLine(facts.problem));
  h.set(DEAD_HEADERS.consumer, facts.consumer);
  h.set(DEAD_HEADERS.stream, facts.stream);
  h.set(DEAD_HEADERS.deliveries, String(deliveries));
  h.set(DEAD_HEADERS.at, new Date().toISOString());
  return h;
}

/** Puts a message that cannot be handled into the dead-letter stream, with why and where it came from. */
export async function sendToDeadLetters(bus: Bus, m: JsMsg, facts: DeadLetterFacts): Promise<void> {
  const h = deadHeaders(m.headers, facts, m.info.deliveryCount);
  await bus.js.publish(`${bus.namespace}deadletter.${facts.subject}`, m.data, { headers: h, msgID: `dl:${facts.consumer}:${m.info.streamSequence}` });
}

/** An outbox row JetStream refused, parked in the dead letters (when the dead-letter stream takes it). */
export async function parkInDeadLetters(bus: Bus, row: { id: string; subject: string; payload: unknown; version: number }, problem: string, outbox: string): Promise<void> {
  const h = natsHeaders();
  h.set('Mm-Bus-Version', String(row.version));
  const facts: DeadLetterFacts = { subject: row.subject, reason: 'refused', problem, consumer: outbox, stream: 'outbox' };
  const all = deadHeaders(h, facts, 1);
  all.set('Mm-Outbox-Id', row.id);
  const subject = `${bus.namespace}deadletter.${row.subject}`;
  const data = codec.encode(row.payload);
  // A payload too large for NATS is too large for the dead letters too: its row keeps it, the letter says where.
  const letter = data.length < bus.nc.info!.max_payload - 4096 ? data : codec.encode({ outboxId: row.id, bytes: data.length, note: 'too large for NATS: the payload stays in the outbox row' });
  await bus.js.publish(subject, letter, { headers: all, msgID: `dl:${outbox}:${row.id}` });
}

export interface DeadLetter {
  seq: number;
  subject: string;
  reason: string;
  problem: string;
  consumer: string;
  stream: string;
  deliveries: number;
  deadAt: string;
  headers: Record<string, string>;
  payload: unknown;
}

/** The dead letters in the stream, oldest first, after `afterSeq`. */
export async function listDeadLetters(bus: Bus, opts: { afterSeq?: number; limit?: number } = {}): Promise<{ items: DeadLetter[]; total: number }> {
  const name = streamName(bus.namespace, 'DEADLETTER');
  const info = await bus.jsm.streams.info(name);
  const items: DeadLetter[] = [];
  const limit = opts.limit ?? 100;
  for (let seq = Math.max(info.state.first_seq, (opts.afterSeq ?? 0) + 1); seq <= info.state.last_seq && items.length < limit; seq++) {
    const m = await bus.jsm.streams.getMessage(name, { seq }).catch(() => null);
    if (!m) continue; // deleted (replayed) or aged out
    const h = (k: string) => m.header?.get(k) ?? '';
    let payload: unknown;
    try {
      payload = codec.decode(m.data);
    } catch {
      payload = Buffer.from(m.data).toString('base64');
    }
    const headers: Record<string, string> = {};
    if (m.header) for (const [k, v] of m.header) headers[k] = v.join(', ');
    items.push({
      seq,
      subject: h(DEAD_HEADERS.subject),
      reason: h(DEAD_HEADERS.reason),
      problem: h(DEAD_HEADERS.problem),
      consumer: h(DEAD_HEADERS.consumer),
      stream: h(DEAD_HEADERS.stream),
      deliveries: Number(h(DEAD_HEADERS.deliveries)) || 0,
      deadAt: h(DEAD_HEADERS.at),
      headers,
      payload,
    });
  }
  return { items, total: info.state.messages };
}

/**
 * Sends a dead letter back to its subject (once its cause is fixed), with its original headers
 * and a new message id (the old one is still in JetStream's duplicate window), then removes it.
 * Returns false when no dead letter has that sequence.
 */
export async function replayDeadLetter(bus: Bus, seq: number): Promise<{ subject: string } | null> {
  const name = streamName(bus.namespace, 'DEADLETTER');
  const m = await bus.jsm.streams.getMessage(name, { seq }).catch(() => null);
  if (!m) return null;
  const subject = m.header?.get(DEAD_HEADERS.subject);
  if (!subject) return null;
  const h = natsHeaders();
  if (m.header) for (const [k, values] of m.header) if (!k.startsWith('Mm-Dead-') && k !== 'Nats-Msg-Id' && k !== 'Mm-Outbox-Id') for (const v of values) h.append(k, v);
  await bus.js.publish(bus.namespace + subject, m.data, { headers: h, msgID: `replay:${name}:${seq}` });
  await bus.jsm.streams.deleteMessage(name, seq, false);
  return { subject };
}
