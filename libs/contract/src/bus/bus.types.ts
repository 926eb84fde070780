/**
 * The shape of the bus table: every NATS subject the services use, with its kind, owner, users,
 * versions (payload and reply JSON Schemas) and refusal codes. `libs/bus` sends and receives only
 * through these entries.
 */
import type { ErrorCode } from '../catalog';
import type { JsonSchema } from '../schema-helpers';

/** The services that talk over the bus (the gateway included: admin credits, account contact). */
export const BUS_SERVICES = ['gateway', 'account', 'recordings', 'pipeline', 'series', 'ask', 'events'] as const;
export type BusService = (typeof BUS_SERVICES)[number];

/**
 * - `request`: request/reply, outside every stream; the owner serves it, users ask.
 * - `fact`: something that happened, in a JetStream stream; the owner publishes, users consume.
 * - `job`: work to be done, in a JetStream stream; the owner consumes (does the work), users publish.
 */
export type BusKind = 'request' | 'fact' | 'job';

/** The JetStream streams facts and jobs travel in. */
export const BUS_STREAMS = {
  /** Meeting facts from the recordings outbox. */
  RECORDINGS: { subjects: ['recordings.recording.>', 'recordings.digest.>'], maxAgeDays: 31 },
  /** Work for the pipeline, and its results and timers back to recordings. */
  PIPELINE: { subjects: ['pipeline.>'], maxAgeDays: 7 },
  /** Messages no consumer could handle: malformed, or failed more often than their limit. */
  DEADLETTER: { subjects: ['deadletter.>'], maxAgeDays: 31 },
} as const;
export type BusStream = keyof typeof BUS_STREAMS;

/** One version of a subject's messages. */
export interface BusVersion {
  payload: JsonSchema;
  /** Requests only: the result of a successful reply. */
  reply?: JsonSchema;
}

export interface BusEntry<P = unknown, R = unknown> {
  /** The entry's name in the table (`walletHold`). */
  name: string;
  /**
   * The logical subject (before the namespace). A family of subjects ends in `.>` and names each
   * message's subject with `subjectOf` (one subject per meeting event type).
   */
  subject: string;
  kind: BusKind;
  /** The one service that serves (request), publishes (fact) or does (job) it. */
  owner: BusService;
  /** Who asks (request), consumes (fact) or publishes (job). */
  users: readonly BusService[];
  description: string;
  /** The version senders write now. */
  version: number;
  /** Every version a receiver still accepts, the current one included. */
  versions: Readonly<Record<number, BusVersion>>;
  /** Versions taken out on purpose, once no deployed service sends them (the compatibility check allows their removal). */
  retired?: readonly number[];
  /** Codes a refusal of this request may carry (requests; VALIDATION, UNAUTHORIZED and INTERNAL_ERROR always may). */
  refusals: readonly ErrorCode[];
  /** Facts and jobs: the stream they travel in. */
  stream?: BusStream;
  /** Requests made for a caller: they carry the caller's signed principal, verified by the owner. */
  principal?: boolean;
  /** Facts and jobs: deliveries before a message goes to the dead letters (default 50). */
  maxDeliver?: number;
  /**
   * Facts and jobs: the subject filter consumers use when it is wider than `subject` (a durable
   * made by an older release keeps its filter: NATS 2.9 cannot narrow it).
   */
  consumerFilter?: string;
  /** Families: the concrete subject of one message. */
  subjectOf?: (payload: P) => string;
  /** Type carriers only; never set. */
  readonly _payload?: P;
  readonly _reply?: R;
}

/** A request/reply entry. */
export type RequestEntry<P = unknown, R = unknown> = BusEntry<P, R> & { kind: 'request' };
/** A fact or job entry (travels in a stream). */
export type StreamEntry<P = unknown> = BusEntry<P, any> & { kind: 'fact' | 'job'; stream: BusStream };

/** Codes any refusal may carry, whatever the subject. */
export const BUS_GENERIC_REFUSALS = [
  'VALIDATION',
  'UNAUTHORIZED',
  'INTERNAL_ERROR',
] as const satisfies readonly ErrorCode[];
