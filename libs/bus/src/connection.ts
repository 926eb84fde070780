import { connect, type NatsConnection, type JetStreamClient, type JetStreamManager, RetentionPolicy, StorageType, DiscardPolicy } from 'nats';

/** A NATS connection with its JetStream client and manager, inside one namespace. */
export interface Bus {
  nc: NatsConnection;
  js: JetStreamClient;
  jsm: JetStreamManager;
  /** Prefix of every subject and stream name (`BUS_NAMESPACE`; empty in production). */
  namespace: string;
  close(): Promise<void>;
}

/**
 * The JetStream streams of the system. Facts that must not be lost travel here; request/reply
 * subjects (`account.wallet.hold`) are deliberately outside every stream.
 */
export const STREAMS = [
  // Meeting facts from the recordings outbox; consumers: events, series, ask, account.
  // `recordings.digest.>` carries digest content for internal consumers (account: memory, summary email).
  { name: 'RECORDINGS', subjects: ['recordings.recording.>', 'recordings.digest.>'], maxAgeDays: 31 },
  // Work for the pipeline, and the pipeline's results and timers back to recordings.
  { name: 'PIPELINE', subjects: ['pipeline.>'], maxAgeDays: 7 },
] as const;

const DUPLICATE_WINDOW_NS = 24 * 3600 * 1e9;
const namespaces = new WeakMap<NatsConnection, string>();

/** The subject as seen on the wire: the connection's namespace, then the logical subject. */
export function wireSubject(nc: NatsConnection, subject: string): string {
  return (namespaces.get(nc) ?? '') + subject;
}

/** A stream's name inside a namespace (`t1a2b.` + `PIPELINE` → `t1a2b_PIPELINE`). */
export function streamName(namespace: string, name: string): string {
  return namespace ? `${namespace.replace(/\W/g, '_')}${name}` : name;
}

/**
 * Connects and makes sure every stream exists (idempotent; safe from several replicas at once).
 * A namespace keeps several systems (tests, benchmarks, a dev stack) apart on one NATS server.
 */
export async function connectBus(url: string, name: string, namespace = ''): Promise<Bus> {
  const nc = await connect({ servers: url, name, maxReconnectAttempts: -1, reconnectTimeWait: 500 });
  namespaces.set(nc, namespace);
  const jsm = await nc.jetstreamManager();
  for (const s of STREAMS) {
    const config = {
      name: streamName(namespace, s.name),
      subjects: s.subjects.map((sub) => namespace + sub),
      retention: RetentionPolicy.Limits,
      storage: StorageType.File,
      discard: DiscardPolicy.Old,
      max_age: s.maxAgeDays * 24 * 3600 * 1e9,
      duplicate_window: DUPLICATE_WINDOW_NS,
    };
    let existing: string[] | null = null;
    try {
      existing = (await jsm.streams.info(config.name)).config.subjects ?? [];
    } catch {
      try {
        await jsm.streams.add(config);
      } catch (err) {
        // Another replica created it between our look and our add (perhaps an older release).
        existing = (
          await jsm.streams.info(config.name).catch(() => {
            throw err;
          })
        ).config.subjects ?? [];
      }
    }
    const missing = existing ? config.subjects.filter((sub) => !existing!.includes(sub)) : [];
    // A stream made by an older release lacks subjects added since. Only add, never remove: a
    // replica of the older release starting during a rolling update must not take them away again.
    if (existing && missing.length) await jsm.streams.update(config.name, { subjects: [...existing, ...missing] });
  }
  return { nc, js: nc.jetstream(), jsm, namespace, close: () => nc.drain() };
}

/** Deletes a namespace's streams (tests clean up after themselves). */
export async function dropNamespace(bus: Bus): Promise<void> {
  if (!bus.namespace) throw new Error('refusing to drop the unnamed namespace');
  for (const s of STREAMS) await bus.jsm.streams.delete(streamName(bus.namespace, s.name)).catch(() => undefined);
}
