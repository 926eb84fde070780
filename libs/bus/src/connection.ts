import { readFileSync } from 'node:fs';
import {
  connect,
  credsAuthenticator,
  nkeyAuthenticator,
  type Authenticator,
  type ConnectionOptions,
  type NatsConnection,
  type JetStreamClient,
  type JetStreamManager,
  type StreamConfig,
  RetentionPolicy,
  StorageType,
  DiscardPolicy,
} from 'nats';
import client from 'prom-client';
import { BUS_STREAMS, type BusService, type BusStream } from '@mm/contract';
import {
  principalKey,
  PrincipalVerifier,
  ReusedSignatures,
  serviceRegistry,
  type CommonConfig,
  type Principal,
  type StreamSettings,
} from '@mm/platform';
import { inboxPrefix, streamName } from './names';
import type { Replies } from './replies';
import { streamsOf } from './auth';

/** A NATS connection with its JetStream client and manager, inside one namespace. */
export interface Bus {
  nc: NatsConnection;
  js: JetStreamClient;
  jsm: JetStreamManager;
  /** Prefix of every subject and stream name (`BUS_NAMESPACE`; empty in production). */
  namespace: string;
  /**
   * The service this connection speaks for (its NATS user; the owner or user of the entries it
   * touches), or `operator`: the admin tools' and tests' user, which may reach every subject.
   */
  service: BusConnector;
  close(): Promise<void>;
}

export type BusConnector = BusService | 'operator';

export interface BusOptions {
  /** NATS user and password of the service (`NATS_USER`, `NATS_PASSWORD`); the broker's permissions come from the bus table. */
  user?: string;
  pass?: string;
  /** `INTERNAL_JWT_SECRET`: signs the caller's principal on requests made for a caller, and verifies it where they are served. */
  internalSecret?: string;
  /** Where the bus counts dead letters and refused messages (the service's /metrics). */
  registry?: client.Registry;
  /**
   * The operator's credentials, to run the setup step (streams) before connecting as a service.
   * Unset: taken from the environment (NATS_PASSWORD_OPERATOR) when the service's own are too.
   */
  setup?: { user?: string; pass?: string };
  /** Instead of a password: the user's nkey seed (`SU…`) or an operator-mode credentials file. */
  nkeySeed?: string;
  credsFile?: string;
  /** TLS to the broker: its CA, and a client certificate where the broker asks for one. */
  tls?: { caFile?: string; certFile?: string; keyFile?: string };
  /** How long a service waits for the setup step to have made its streams (60 s). */
  streamWaitMs?: number;
  /** Streams' replicas, limits and discard policy (default: one replica, no size cap, the table's ages, discard old). */
  streams?: StreamSettings;
}

/** What the bus layer knows of a connection beyond the NATS client. */
export interface BusContext {
  namespace: string;
  service: BusConnector;
  key?: Uint8Array;
  /** The callers this connection passes on, each signature reused for a while (ReusedSignatures). */
  signatures?: ReusedSignatures<Principal>;
  verifier?: PrincipalVerifier;
  /** Requests in flight and their answers (made on the first request). */
  replies?: Replies;
  /** The service's /metrics registry, when it gave one. */
  registry?: client.Registry;
  counters: { deadLetters: client.Counter<'subject' | 'reason'>; invalid: client.Counter<'subject' | 'direction'> };
}

const contexts = new WeakMap<NatsConnection, BusContext>();

function countersFor(registry?: client.Registry): BusContext['counters'] {
  const registers = registry ? [registry] : [];
  const existing = registry?.getSingleMetric('bus_dead_letters_total') as
    | client.Counter<'subject' | 'reason'>
    | undefined;
  if (existing)
    return {
      deadLetters: existing,
      invalid: registry!.getSingleMetric('bus_invalid_messages_total') as client.Counter<'subject' | 'direction'>,
    };
  return {
    deadLetters: new client.Counter({
      name: 'bus_dead_letters_total',
      help: 'Messages sent to the dead-letter stream, by subject and reason',
      labelNames: ['subject', 'reason'],
      registers,
    }),
    invalid: new client.Counter({
      name: 'bus_invalid_messages_total',
      help: 'Messages that did not follow the bus table, by subject and direction',
      labelNames: ['subject', 'direction'],
      registers,
    }),
  };
}

/** The bus layer's facts of a connection (namespace, service, keys, counters). */
export function contextOf(nc: NatsConnection): BusContext {
  const c = contexts.get(nc);
  if (!c) throw new Error('not a bus connection: connect with connectBus');
  return c;
}

/** The subject as seen on the wire: the connection's namespace, then the logical subject. */
export function wireSubject(nc: NatsConnection, subject: string): string {
  return (contexts.get(nc)?.namespace ?? '') + subject;
}

export { streamName };

const DUPLICATE_WINDOW_NS = 24 * 3600 * 1e9;

/**
 * The setup step: makes sure every stream exists with every subject of the table and the
 * settings' replicas, limits and discard policy (idempotent; safe from several processes at once).
 * Only the operator's credentials may (the services' are refused stream changes by the broker).
 */
export async function setupStreams(jsm: JetStreamManager, namespace: string, settings?: StreamSettings): Promise<void> {
  for (const name of Object.keys(BUS_STREAMS) as BusStream[]) await ensureStream(jsm, namespace, name, settings);
}

/**
 * Waits until the streams a service touches exist with their subjects (the setup step made
 * them); throws after `waitMs`, naming the step to run.
 */
async function awaitStreams(
  jsm: JetStreamManager,
  namespace: string,
  service: BusService,
  waitMs: number,
): Promise<void> {
  const until = Date.now() + waitMs;
  for (const name of streamsOf(service)) {
    const config = streamConfig(namespace, name);
    for (;;) {
      const subjects = await jsm.streams.info(config.name).then(
        (i) => i.config.subjects ?? [],
        () => null,
      );
      if (subjects && config.subjects.every((sub) => subjects.includes(sub))) break;
      if (Date.now() > until)
        throw new Error(
          `the ${config.name} stream is ${subjects ? 'missing subjects' : 'missing'}: run the bus setup step (pnpm bus:setup, with the operator's NATS credentials) before the services`,
        );
      await new Promise((r) => setTimeout(r, 500));
    }
  }
}

/**
 * Connects inside a namespace (which keeps several systems, tests, benchmarks and a dev stack,
 * apart on one NATS server). The operator sets the streams up; so does a service on a broker
 * without authentication (development). A service with credentials may not change streams: it
 * waits for the setup step to have made them (`setup`: the operator's credentials, to run that
 * step first, as the launcher, the tests and compose do).
 */
export async function connectBus(
  url: string,
  service: BusConnector,
  namespace = '',
  opts: BusOptions = {},
): Promise<Bus> {
  const { user, pass } = opts.user !== undefined ? opts : natsCredentials(service);
  const setup =
    opts.setup ?? (opts.user === undefined && service !== 'operator' ? natsCredentials('operator') : undefined);
  if (setup?.pass) await setupBus(url, namespace, { ...setup, tls: opts.tls }, opts.streams);
  const auth = authOptions({ user, pass, nkeySeed: opts.nkeySeed, credsFile: opts.credsFile, tls: opts.tls });
  const nc = await connect({
    servers: url,
    name: service,
    ...auth,
    inboxPrefix: inboxPrefix(service),
    // nats.js captures a stack (new Error) for every request and its timer, to tell where a
    // timed-out request came from: measurable CPU on every bus call of a read. Our errors say
    // which subject timed out (call.ts), so the trace is not needed (docs/decisions.md).
    noAsyncTraces: true,
    maxReconnectAttempts: -1,
    reconnectTimeWait: 500,
  });
  const key = opts.internalSecret ? principalKey(opts.internalSecret) : undefined;
  contexts.set(nc, {
    namespace,
    service,
    key,
    signatures: key ? new ReusedSignatures<Principal>(key) : undefined,
    verifier: key ? new PrincipalVerifier(key) : undefined,
    registry: opts.registry,
    counters: countersFor(opts.registry),
  });
  try {
    const jsm = await nc.jetstreamManager();
    if (service === 'operator' || !(pass || opts.nkeySeed || opts.credsFile))
      await setupStreams(jsm, namespace, opts.streams);
    else await awaitStreams(jsm, namespace, service, opts.streamWaitMs ?? 60_000);
    return { nc, js: nc.jetstream(), jsm, namespace, service, close: () => nc.drain() };
  } catch (err) {
    await nc.close();
    throw err;
  }
}

/**
 * How a connection proves who it is: an nkey seed or a credentials file when given (the broker then
 * knows no password for it), else user and password; TLS files when given.
 */
export function authOptions(creds: {
  user?: string;
  pass?: string;
  nkeySeed?: string;
  credsFile?: string;
  tls?: { caFile?: string; certFile?: string; keyFile?: string };
}): Partial<ConnectionOptions> {
  let authenticator: Authenticator | undefined;
  if (creds.credsFile) authenticator = credsAuthenticator(new Uint8Array(readFileSync(creds.credsFile)));
  else if (creds.nkeySeed) authenticator = nkeyAuthenticator(new TextEncoder().encode(creds.nkeySeed));
  const tls = creds.tls && Object.values(creds.tls).some(Boolean) ? { ...creds.tls } : undefined;
  return { ...(authenticator ? { authenticator } : { user: creds.user, pass: creds.pass }), ...(tls ? { tls } : {}) };
}

/** The setup step alone: connects as the operator, makes sure every stream exists, disconnects. */
export async function setupBus(
  url: string,
  namespace: string,
  creds: { user?: string; pass?: string; nkeySeed?: string; credsFile?: string; tls?: BusOptions['tls'] },
  settings?: StreamSettings,
): Promise<void> {
  const nc = await connect({
    servers: url,
    name: 'setup',
    ...authOptions({ ...creds, user: creds.user ?? 'operator' }),
    inboxPrefix: inboxPrefix('operator'),
  });
  try {
    await setupStreams(await nc.jetstreamManager(), namespace, settings);
  } finally {
    await nc.close();
  }
}

/** The stream a namespace needs, as the settings say. */
function streamConfig(namespace: string, name: BusStream, settings?: StreamSettings) {
  return {
    name: streamName(namespace, name),
    subjects: BUS_STREAMS[name].subjects.map((sub) => namespace + sub),
    retention: RetentionPolicy.Limits,
    storage: StorageType.File,
    discard: settings?.discard === 'new' ? DiscardPolicy.New : DiscardPolicy.Old,
    max_age: (settings?.maxAgeDays[name] ?? BUS_STREAMS[name].maxAgeDays) * 24 * 3600 * 1e9,
    max_bytes: settings?.maxBytes[name] ?? -1,
    num_replicas: settings?.replicas ?? 1,
    duplicate_window: DUPLICATE_WINDOW_NS,
  };
}

/**
 * Makes a stream, or brings an existing one to the settings (idempotent; safe from several
 * replicas at once: each writes the same configuration). Subjects are only added, never removed:
 * a replica of an older release starting during a rolling update must not take new ones away.
 * Retention and storage are never changed (NATS refuses it); replicas, limits and discard are.
 */
export async function ensureStream(
  jsm: JetStreamManager,
  namespace: string,
  name: BusStream,
  settings?: StreamSettings,
): Promise<void> {
  const config = streamConfig(namespace, name, settings);
  let existing: StreamConfig | null = null;
  try {
    existing = (await jsm.streams.info(config.name)).config;
  } catch {
    try {
      await jsm.streams.add(config);
      return;
    } catch (err) {
      // Another replica created it between our look and our add (perhaps an older release).
      existing = (
        await jsm.streams.info(config.name).catch(() => {
          throw err;
        })
      ).config;
    }
  }
  const subjects = [...existing.subjects, ...config.subjects.filter((sub) => !existing!.subjects.includes(sub))];
  const want = {
    subjects,
    discard: config.discard,
    max_age: config.max_age,
    max_bytes: config.max_bytes,
    num_replicas: config.num_replicas,
  };
  const differs = (Object.keys(want) as (keyof typeof want)[]).some(
    (k) => JSON.stringify(existing![k]) !== JSON.stringify(want[k]),
  );
  if (differs) await jsm.streams.update(config.name, { ...existing, ...want });
}

/**
 * A user's credentials from the environment (`NATS_PASSWORD_<USER>`, then `NATS_PASSWORD`), for
 * tools and tests; none when no password is set (a broker without authentication).
 */
export function natsCredentials(
  user: BusConnector,
  env: NodeJS.ProcessEnv = process.env,
): { user?: string; pass?: string } {
  const pass = env[`NATS_PASSWORD_${user.toUpperCase()}`] || env.NATS_PASSWORD;
  return pass ? { user, pass } : {};
}

/** Connects a service with its configuration: its NATS user, the internal secret, its /metrics. */
export function connectServiceBus(config: CommonConfig, service: BusService): Promise<Bus> {
  return connectBus(config.natsUrl, service, config.busNamespace, {
    user: config.natsPassword ? config.natsUser : undefined,
    pass: config.natsPassword ?? undefined,
    nkeySeed: config.natsNkeySeed ?? undefined,
    credsFile: config.natsCredsFile ?? undefined,
    tls: config.natsTls ?? undefined,
    setup: config.natsSetupPassword ? { user: 'operator', pass: config.natsSetupPassword } : {},
    internalSecret: config.internalJwtSecret,
    registry: serviceRegistry(service),
    streams: config.streams,
  });
}

/** Deletes a namespace's streams (tests clean up after themselves). */
export async function dropNamespace(bus: Bus): Promise<void> {
  if (!bus.namespace) throw new Error('refusing to drop the unnamed namespace');
  for (const name of Object.keys(BUS_STREAMS))
    await bus.jsm.streams.delete(streamName(bus.namespace, name)).catch(() => undefined);
}
