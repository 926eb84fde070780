import { connect, type NatsConnection, type JetStreamClient, type JetStreamManager, RetentionPolicy, StorageType, DiscardPolicy } from 'nats';

/** A NATS connection with its JetStream client and manager. */
export interface Bus {
  nc: NatsConnection;
  js: JetStreamClient;
  jsm: JetStreamManager;
  close(): Promise<void>;
}

/**
 * The JetStream streams of the system. Facts that must not be lost travel here; request/reply
 * subjects (`account.wallet.hold`) are deliberately outside every stream.
 */
export const STREAMS = [
  // Meeting facts from the recordings outbox; consumers: events, series, ask, account.
  { name: 'RECORDINGS', subjects: ['recordings.recording.>'], retention: RetentionPolicy.Limits, maxAgeDays: 31 },
  // Work for the pipeline and the pipeline's results back to recordings.
  { name: 'PIPELINE', subjects: ['pipeline.>'], retention: RetentionPolicy.Limits, maxAgeDays: 7 },
] as const;

const DUPLICATE_WINDOW_NS = 24 * 3600 * 1e9;

/** Connects and makes sure every stream exists (idempotent; safe from several replicas at once). */
export async function connectBus(url: string, name: string): Promise<Bus> {
  const nc = await connect({ servers: url, name, maxReconnectAttempts: -1, reconnectTimeWait: 500 });
  const jsm = await nc.jetstreamManager();
  for (const s of STREAMS) {
    const config = {
      name: s.name,
      subjects: [...s.subjects],
      retention: s.retention,
      storage: StorageType.File,
      discard: DiscardPolicy.Old,
      max_age: s.maxAgeDays * 24 * 3600 * 1e9,
      duplicate_window: DUPLICATE_WINDOW_NS,
    };
    try {
      await jsm.streams.info(s.name);
    } catch {
      try {
        await jsm.streams.add(config);
      } catch (err) {
        // Another replica created it between our look and our add.
        if (!String(err).includes('already in use')) await jsm.streams.info(s.name);
      }
    }
  }
  return { nc, js: nc.jetstream(), jsm, close: () => nc.drain() };
}
