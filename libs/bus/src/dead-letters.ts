import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import { headers as natsHeaders, JSONCodec, type JsMsg, type MsgHdrs } from 'nats';
import { BUS_CONSUMERS, BUS_STREAMS, type BusEntry } from '@mm/contract';
import { contextOf, streamName, type Bus } from './connection';
import { deadLetterSubject, parseDeadLetterSubject } from './dead-letter-subject';
import { entryOfSubject } from './table';

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
  /** The service that dead-lettered it (its subject says so too: `deadletter.by-<service>.`). */
  by: 'Mm-Dead-By',
  /** HMAC of the letter's facts and payload with a key derived from INTERNAL_JWT_SECRET. */
  signature: 'Mm-Dead-Signature',
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

const sha256 = (data: Uint8Array) => createHash('sha256').update(data).digest('hex');

/** What a letter's signature covers: who, what, why, when, and the payload's digest. */
function signed(h: MsgHdrs, data: Uint8Array): string {
  const f = (k: string) => h.get(k) ?? '';
  const d = DEAD_HEADERS;
  return [
    'mm-dead-letter-v1',
    f(d.by),
    f(d.subject),
    f(d.reason),
    f(d.consumer),
    f(d.stream),
    f(d.at),
    sha256(data),
  ].join('\n');
}

const signatureOf = (key: Uint8Array, h: MsgHdrs, data: Uint8Array) =>
  createHmac('sha256', key).update(signed(h, data)).digest('base64url');

function deadHeaders(bus: Bus, original: MsgHdrs | undefined, facts: DeadLetterFacts, deliveries: number): MsgHdrs {
  const h = natsHeaders();
  if (original)
    for (const [k, values] of original)
      if (!k.startsWith('Mm-Dead-') && k !== 'Nats-Msg-Id') for (const v of values) h.append(k, v);
  h.set(DEAD_HEADERS.subject, facts.subject);
  h.set(DEAD_HEADERS.reason, facts.reason);
  h.set(DEAD_HEADERS.problem, oneLine(facts.problem));
  h.set(DEAD_HEADERS.consumer, facts.consumer);
  h.set(DEAD_HEADERS.stream, facts.stream);
  h.set(DEAD_HEADERS.deliveries, String(deliveries));
  h.set(DEAD_HEADERS.at, new Date().toISOString());
  h.set(DEAD_HEADERS.by, bus.service);
  return h;
}

/** Signs a letter (when the connection has the internal secret) and writes it under its writer's name. */
async function writeLetter(bus: Bus, h: MsgHdrs, data: Uint8Array, subject: string, msgID: string): Promise<void> {
  const key = contextOf(bus.nc).key;
  if (key) h.set(DEAD_HEADERS.signature, signatureOf(key, h, data));
  await bus.js.publish(bus.namespace + deadLetterSubject(bus.service, subject), data, { headers: h, msgID });
}

/** Puts a message that cannot be handled into the dead-letter stream, with why and where it came from. */
export async function sendToDeadLetters(bus: Bus, m: JsMsg, facts: DeadLetterFacts): Promise<void> {
  await writeLetter(
    bus,
    deadHeaders(bus, m.headers, facts, m.info.deliveryCount),
    m.data,
    facts.subject,
    `dl:${facts.consumer}:${m.info.streamSequence}`,
  );
}

/** An outbox row JetStream refused, parked in the dead letters (when the dead-letter stream takes it). */
export async function parkInDeadLetters(
  bus: Bus,
  row: { id: string; subject: string; payload: unknown; version: number },
  problem: string,
  outbox: string,
): Promise<void> {
  const h = natsHeaders();
  h.set('Mm-Bus-Version', String(row.version));
  const facts: DeadLetterFacts = {
    subject: row.subject,
    reason: 'refused',
    problem,
    consumer: outbox,
    stream: 'outbox',
  };
  const all = deadHeaders(bus, h, facts, 1);
  all.set('Mm-Outbox-Id', row.id);
  const data = codec.encode(row.payload);
  // A payload too large for NATS is too large for the dead letters too: its row keeps it, the letter says where.
  const letter =
    data.length < bus.nc.info!.max_payload - 4096
      ? data
      : codec.encode({
          outboxId: row.id,
          bytes: data.length,
          note: 'too large for NATS: the payload stays in the outbox row',
        });
  await writeLetter(bus, all, letter, row.subject, `dl:${outbox}:${row.id}`);
}

/**
 * Whether `by` could have dead-lettered a message of `entry` for `reason`, by the table: a
 * consumer of it (a fact's users, a job's owner, with a durable reading it) for a message it
 * could not handle; a publisher of it (a fact's owner, a job's users) for an outbox row; or the
 * operator.
 */
function couldHaveSent(by: string, entry: BusEntry<unknown, unknown>, reason: string): boolean {
  // The operator's credentials may publish anything already: its letters (admin tools, tests) add no power.
  if (by === 'operator') return true;
  if (reason === 'refused') return entry.kind === 'fact' ? entry.owner === by : entry.users.some((user) => user === by);
  return BUS_CONSUMERS.some((c) => c.service === by && c.entries.some((e) => e === entry));
}

/**
 * Where a letter may be replayed, judged from what the writer cannot choose: the letter's own
 * subject (the broker lets each service write only `deadletter.by-<itself>.<its subjects>`), the
 * table, and the signature. A refusal says why; the target is never taken from a header.
 */
export function replayVerdict(
  bus: Bus,
  wire: string,
  h: MsgHdrs | undefined,
  data: Uint8Array,
): { subject: string | null; by: string | null; refusal: string | null } {
  const parsed = parseDeadLetterSubject(wire.slice(bus.namespace.length));
  if (!parsed)
    return {
      subject: null,
      by: null,
      refusal: 'an unsigned letter of an older release: read it and publish it again by hand if it is right',
    };
  const { by, subject } = parsed;
  const refuse = (refusal: string) => ({ subject, by, refusal });
  const entry = entryOfSubject(subject);
  if (!entry || entry.kind === 'request') return refuse(`${subject} is not a fact or job of the bus table`);
  const prefix = (s: string) => (s.endsWith('.>') ? subject.startsWith(s.slice(0, -1)) : subject === s);
  if (!BUS_STREAMS[entry.stream!].subjects.some(prefix))
    return refuse(`the ${entry.stream} stream does not hold ${subject}`);
  if (!couldHaveSent(by, entry, h?.get(DEAD_HEADERS.reason) ?? ''))
    return refuse(`${by} neither consumes nor publishes ${subject} by the table`);
  if (h?.get(DEAD_HEADERS.subject) !== subject || h?.get(DEAD_HEADERS.by) !== by)
    return refuse('its headers do not match its subject');
  const key = contextOf(bus.nc).key;
  const signature = h?.get(DEAD_HEADERS.signature) ?? '';
  if (key && !(signature.length > 0 && safeEqual(signature, signatureOf(key, h!, data))))
    return refuse(
      'its signature does not verify: not written by a service holding the internal secret, or altered since',
    );
  return { subject, by, refusal: null };
}

const safeEqual = (a: string, b: string) => a.length === b.length && timingSafeEqual(Buffer.from(a), Buffer.from(b));

export interface DeadLetter {
  seq: number;
  subject: string;
  reason: string;
  problem: string;
  consumer: string;
  stream: string;
  deliveries: number;
  deadAt: string;
  /** Who dead-lettered it, by the letter's subject (null: a letter of an older release). */
  by: string | null;
  /** Where a replay would send it, or why it may not be replayed. */
  replay: { subject: string | null; refusal: string | null };
  /** SHA-256 of the payload's bytes: a replay names it, so what is replayed is what was read. */
  payloadSha256: string;
  headers: Record<string, string>;
  payload: unknown;
}

function toDeadLetter(bus: Bus, seq: number, m: { subject: string; data: Uint8Array; header?: MsgHdrs }): DeadLetter {
  const h = (k: string) => m.header?.get(k) ?? '';
  let payload: unknown;
  try {
    payload = codec.decode(m.data);
  } catch {
    payload = Buffer.from(m.data).toString('base64');
  }
  const headers: Record<string, string> = {};
  if (m.header) for (const [k, v] of m.header) headers[k] = v.join(', ');
  const verdict = replayVerdict(bus, m.subject, m.header, m.data);
  return {
    seq,
    subject: h(DEAD_HEADERS.subject),
    reason: h(DEAD_HEADERS.reason),
    problem: h(DEAD_HEADERS.problem),
    consumer: h(DEAD_HEADERS.consumer),
    stream: h(DEAD_HEADERS.stream),
    deliveries: Number(h(DEAD_HEADERS.deliveries)) || 0,
    deadAt: h(DEAD_HEADERS.at),
    by: verdict.by,
    replay: { subject: verdict.refusal ? null : verdict.subject, refusal: verdict.refusal },
    payloadSha256: sha256(m.data),
    headers,
    payload,
  };
}

const deadLetterStream = (bus: Bus) => streamName(bus.namespace, 'DEADLETTER');

/** The dead letters in the stream, oldest first, after `afterSeq`. */
export async function listDeadLetters(
  bus: Bus,
  opts: { afterSeq?: number; limit?: number } = {},
): Promise<{ items: DeadLetter[]; total: number }> {
  const name = deadLetterStream(bus);
  const info = await bus.jsm.streams.info(name);
  const items: DeadLetter[] = [];
  const limit = opts.limit ?? 100;
  for (
    let seq = Math.max(info.state.first_seq, (opts.afterSeq ?? 0) + 1);
    seq <= info.state.last_seq && items.length < limit;
    seq++
  ) {
    const m = await bus.jsm.streams.getMessage(name, { seq }).catch(() => null);
    if (m) items.push(toDeadLetter(bus, seq, m)); // else deleted (replayed) or aged out
  }
  return { items, total: info.state.messages };
}

/** One dead letter, with its payload and where a replay would send it; null when none has that sequence. */
export async function readDeadLetter(bus: Bus, seq: number): Promise<DeadLetter | null> {
  const m = await bus.jsm.streams.getMessage(deadLetterStream(bus), { seq }).catch(() => null);
  return m ? toDeadLetter(bus, seq, m) : null;
}

export type ReplayOutcome =
  | { replayed: true; subject: string; by: string }
  | { replayed: false; refusal: string; letter: DeadLetter };

/**
 * Sends a dead letter back to its subject (once its cause is fixed), with its original headers
 * and a new message id (the old one is still in JetStream's duplicate window), then removes it.
 * Only to a subject the table lets its writer have dead-lettered (replayVerdict), and only when
 * `payloadSha256` is the payload's digest as read before (GET shows it): what is replayed is what
 * the operator saw. Null when no dead letter has that sequence.
 */
export async function replayDeadLetter(bus: Bus, seq: number, payloadSha256: string): Promise<ReplayOutcome | null> {
  const name = deadLetterStream(bus);
  const m = await bus.jsm.streams.getMessage(name, { seq }).catch(() => null);
  if (!m) return null;
  const letter = toDeadLetter(bus, seq, m);
  if (letter.replay.refusal) return { replayed: false, refusal: letter.replay.refusal, letter };
  if (payloadSha256 !== letter.payloadSha256)
    return {
      replayed: false,
      refusal: "payloadSha256 is not the digest of this letter's payload: read it again (GET) before replaying",
      letter,
    };
  const h = natsHeaders();
  if (m.header)
    for (const [k, values] of m.header)
      if (!k.startsWith('Mm-Dead-') && k !== 'Nats-Msg-Id' && k !== 'Mm-Outbox-Id')
        for (const v of values) h.append(k, v);
  await bus.js.publish(bus.namespace + letter.replay.subject!, m.data, { headers: h, msgID: `replay:${name}:${seq}` });
  await bus.jsm.streams.deleteMessage(name, seq, false);
  return { replayed: true, subject: letter.replay.subject!, by: letter.by! };
}
