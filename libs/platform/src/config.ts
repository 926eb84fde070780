import { availableParallelism } from 'node:os';
import path from 'node:path';
import { ASK_PRICING, BUS_SERVICES } from '@mm/contract';
import { ConfigError, DEV_SECRET, EnvReader, secretWeakness } from './env-reader';
import { readStreamSettings, type StreamSettings } from './stream-config';

export { ConfigError, EnvReader, secretWeakness };

/**
 * Bytes of log lines gathered before one write: just under the log stream's largest write (16 KB),
 * so a write carries ~50 request lines instead of ~15 (round 11: the writes' share of a service's
 * samples 6.6% → 2.9%). Lines still leave within 200 ms however few they are (logger.ts).
 */
export const DEFAULT_LOG_BUFFER_BYTES = 15_000;

/** How long a request body being read may send nothing before it is refused (BODY_IDLE_TIMEOUT_SECONDS). */
export const DEFAULT_BODY_IDLE_TIMEOUT_SECONDS = 30;
/** How long a stopping service waits for requests in flight before it cuts them (SHUTDOWN_DRAIN_SECONDS). */
export const DEFAULT_SHUTDOWN_DRAIN_SECONDS = 5;

/** Service names and their default ports (gateway 8080; internal services 8081-8086). */
export const SERVICE_PORTS = {
  gateway: 8080,
  account: 8081,
  recordings: 8082,
  pipeline: 8083,
  series: 8084,
  ask: 8085,
  events: 8086,
  web: 8087,
} as const;
export type ServiceId = keyof typeof SERVICE_PORTS;

/**
 * The services the gateway forwards the API to. With LOCAL_SOCKET_DIR set (every service on one
 * machine: `pnpm start`, the bench), each also listens on `<dir>/<service>.sock` and the gateway
 * forwards over that socket instead of TCP on loopback (docs/decisions.md, "Local hops over Unix
 * sockets").
 */
export const FORWARDED_SERVICES = [
  'account',
  'recordings',
  'series',
  'ask',
  'events',
] as const satisfies readonly ServiceId[];

/** Where a forwarded service listens in LOCAL_SOCKET_DIR. */
export const localSocketPath = (dir: string, service: ServiceId): string => path.join(dir, `${service}.sock`);

/** True when every forwarded service's socket path in `dir` fits a Unix socket address (sun_path: 108 bytes). */
export const socketDirFits = (dir: string): boolean =>
  FORWARDED_SERVICES.every((s) => Buffer.byteLength(localSocketPath(dir, s)) < 104);

/** The forwarded services' sockets in LOCAL_SOCKET_DIR (where the gateway forwards to them); none without one. */
export function localSockets(dir: string | null): Partial<Record<ServiceId, string>> {
  return dir ? Object.fromEntries(FORWARDED_SERVICES.map((s) => [s, localSocketPath(dir, s)])) : {};
}

/**
 * GATEWAY_WORKERS when the gateway shares its machine with the services it forwards to
 * (`pnpm start`, the bench): half the cores, at least one. The gateway's own default (one worker
 * per core) is for a gateway with the machine or pod to itself; beside the services, every extra
 * worker competes with them for the same cores, and on 2 cores one worker spent 20–40% less CPU
 * per request on every route measured (docs/decisions.md, "One gateway worker beside the services").
 */
export function gatewayWorkersBesideServices(cores: number = availableParallelism()): number {
  return Math.max(1, Math.floor(cores / 2));
}

/** True for an address only this machine reaches (127.0.0.0/8, ::1, localhost). */
export function isLoopbackHost(host: string): boolean {
  return host === 'localhost' || host === '::1' || /^127\.\d+\.\d+\.\d+$/.test(host);
}

/** Settings every service shares. */
export interface CommonConfig {
  databaseUrl: string;
  /**
   * Postgres connections per process (DATABASE_POOL_SIZE); null: the service's own default. Every
   * replica of every service opens its pool on the same server: docs/decisions.md, "Speed of
   * every route, round 3".
   */
  databasePoolSize: number | null;
  natsUrl: string;
  /**
   * The service's NATS user (`NATS_USER`, default the service's name) and password
   * (`NATS_PASSWORD`, else `NATS_PASSWORD_<SERVICE>` where one environment serves every service,
   * as in the launcher and the tests; unset for a broker without authentication).
   */
  natsUser: string;
  natsPassword: string | null;
  /**
   * The operator's NATS password (`NATS_SETUP_PASSWORD`, else `NATS_PASSWORD_OPERATOR`): when set,
   * the service runs the bus setup step (streams) before connecting as itself. Services never may
   * change streams with their own credentials.
   */
  natsSetupPassword: string | null;
  /**
   * Beside (or instead of) a password: the service's NATS nkey seed (`NATS_NKEY_SEED`, `SU…`: the
   * broker knows its public key, deploy/nats-credentials.ts), or a credentials file issued by an
   * operator-mode broker (`NATS_CREDS_FILE`: JWT and seed, as managed NATS offerings give them), and
   * TLS files (`NATS_TLS_CA_FILE`, `NATS_TLS_CERT_FILE`, `NATS_TLS_KEY_FILE`; a `tls://` NATS_URL).
   */
  natsNkeySeed: string | null;
  natsCredsFile: string | null;
  natsTls: { caFile?: string; certFile?: string; keyFile?: string } | null;
  /** Prefix of every NATS subject and stream: keeps tests, benchmarks and a dev stack apart on one server. */
  busNamespace: string;
  internalJwtSecret: string;
  logLevel: string;
  /** Log lines gathered before a write (LOG_BUFFER_BYTES, default 15,000; 0 = every line at once; logger.ts). */
  logBufferBytes: number;
  publicBaseUrl: string;
  appUrl: string;
  /** Base URL of each service, for service-to-service HTTP (the gateway's proxy). */
  serviceUrls: Record<ServiceId, string>;
  /**
   * LOCAL_SOCKET_DIR: set when every service runs on this machine; the forwarded services listen
   * there too (`listenSocket`) and the gateway forwards to them there. Null: TCP only (Kubernetes).
   */
  localSocketDir: string | null;
  /** This service's socket in LOCAL_SOCKET_DIR (a forwarded service only), besides its port; null: none. */
  listenSocket: string | null;
  port: number;
  /** The address it listens on (HOST, default 127.0.0.1: only this machine; compose and Kubernetes set 0.0.0.0). */
  host: string;
  /** SIGTERM → /readyz 503 → this long still serving → drain and stop (Kubernetes: a few seconds). */
  shutdownDelaySeconds: number;
  /** Then this long for requests in flight (an upload of hundreds of MB: minutes) before they are cut. */
  shutdownDrainSeconds: number;
  /** A request body being read that sends nothing this long is answered 400 and its connection closed. */
  bodyIdleTimeoutSeconds: number;
  /** JetStream streams' replicas, limits and discard policy (stream-config.ts). */
  streams: StreamSettings;
}

/** The database of a development machine (quick start, `pnpm start`): used when DATABASE_URL is unset outside production. */
export const DEV_DATABASE_URL = 'postgres://postgres@127.0.0.1:5432/meeting_memory';

export function readCommonConfig(r: EnvReader, service: ServiceId): CommonConfig {
  const publicBaseUrl = r.str('PUBLIC_BASE_URL', 'http://127.0.0.1:8080').replace(/\/$/, '');
  const ports = Object.fromEntries(
    (Object.keys(SERVICE_PORTS) as ServiceId[]).map((s) => [s, r.num(`${s.toUpperCase()}_PORT`, SERVICE_PORTS[s])]),
  ) as Record<ServiceId, number>;
  const serviceUrls = Object.fromEntries(
    (Object.keys(SERVICE_PORTS) as ServiceId[]).map((s) => [
      s,
      r.str(`${s.toUpperCase()}_URL`, `http://127.0.0.1:${ports[s]}`),
    ]),
  ) as Record<ServiceId, string>;
  const ns = r.str('BUS_NAMESPACE', '');
  const localSocketDir = r.optional('LOCAL_SOCKET_DIR');
  if (localSocketDir && !socketDirFits(localSocketDir))
    r.problem(`LOCAL_SOCKET_DIR is too long for a Unix socket's path (about 90 characters at most): ${localSocketDir}`);
  // The log stream writes at most 16 KB at once and must gather less than that (logger.ts).
  const logBufferBytes = Math.floor(r.num('LOG_BUFFER_BYTES', DEFAULT_LOG_BUFFER_BYTES, 0));
  if (logBufferBytes >= 16_384) r.problem(`LOG_BUFFER_BYTES must be below 16384 (got ${logBufferBytes})`);
  const host = r.str('HOST', '127.0.0.1');
  const poolRaw = r.optional('DATABASE_POOL_SIZE');
  const databasePoolSize = poolRaw === undefined ? null : Math.floor(r.num('DATABASE_POOL_SIZE', 10, 1));
  const internalJwtSecret = r.secret('INTERNAL_JWT_SECRET', DEV_SECRET);
  if (internalJwtSecret === DEV_SECRET && !isLoopbackHost(host)) {
    r.problem(
      `INTERNAL_JWT_SECRET is the development secret written in the source, refused while listening on ${host}: set it (pnpm start makes one in data/) or listen on loopback (HOST=127.0.0.1)`,
    );
  }
  const natsPassword = r.optional('NATS_PASSWORD') ?? r.optional(`NATS_PASSWORD_${service.toUpperCase()}`);
  // A broker without authentication lets anyone on its network read and write every subject
  // (the app, web, never connects to it).
  const natsNkeySeed = r.optional('NATS_NKEY_SEED');
  if (natsNkeySeed && !/^SU[A-Z2-7]{56}$/.test(natsNkeySeed))
    r.problem('NATS_NKEY_SEED must be a user nkey seed (SU followed by 56 characters)');
  const natsCredsFile = r.optional('NATS_CREDS_FILE');
  const tlsFiles = {
    caFile: r.optional('NATS_TLS_CA_FILE') ?? undefined,
    certFile: r.optional('NATS_TLS_CERT_FILE') ?? undefined,
    keyFile: r.optional('NATS_TLS_KEY_FILE') ?? undefined,
  };
  if (!tlsFiles.certFile !== !tlsFiles.keyFile)
    r.problem('NATS_TLS_CERT_FILE and NATS_TLS_KEY_FILE go together (a client certificate and its key)');
  if (
    !natsPassword &&
    !natsNkeySeed &&
    !natsCredsFile &&
    r.production() &&
    (BUS_SERVICES as readonly string[]).includes(service)
  )
    r.problem(
      `NATS_PASSWORD (or NATS_PASSWORD_${service.toUpperCase()}) must be set when NODE_ENV=production: the broker authenticates every service (or its NATS_NKEY_SEED, or NATS_CREDS_FILE)`,
    );
  if (ns && !/^[a-z0-9_-]{1,32}\.$/.test(ns))
    r.problem('BUS_NAMESPACE must be letters, digits, _ or - ending with a dot (e.g. "test1.")');
  return {
    // Every service opens Postgres, the app (services/web) included: its share links.
    databaseUrl: r.url('DATABASE_URL', ['postgres', 'postgresql'], DEV_DATABASE_URL),
    databasePoolSize,
    // The app (services/web) opens no NATS connection: NATS_URL is not required of it in production.
    natsUrl:
      service === 'web' && !r.optional('NATS_URL')
        ? 'nats://127.0.0.1:4222'
        : r.url('NATS_URL', ['nats', 'tls'], 'nats://127.0.0.1:4222'),
    natsUser: r.str('NATS_USER', service),
    natsPassword,
    natsSetupPassword: r.optional('NATS_SETUP_PASSWORD') ?? r.optional('NATS_PASSWORD_OPERATOR'),
    natsNkeySeed,
    natsCredsFile,
    natsTls: Object.values(tlsFiles).some(Boolean) ? tlsFiles : null,
    busNamespace: r.str('BUS_NAMESPACE', ''),
    internalJwtSecret,
    logLevel: r.str('LOG_LEVEL', 'info'),
    logBufferBytes,
    publicBaseUrl,
    appUrl: r.str('APP_URL', `${publicBaseUrl}/app`).replace(/\/$/, ''),
    serviceUrls,
    localSocketDir: localSocketDir ?? null,
    listenSocket:
      localSocketDir && (FORWARDED_SERVICES as readonly ServiceId[]).includes(service)
        ? localSocketPath(localSocketDir, service)
        : null,
    port: service === 'gateway' ? r.num('PORT', ports.gateway) : ports[service],
    host,
    shutdownDelaySeconds: r.num('SHUTDOWN_DELAY_SECONDS', 0, 0),
    shutdownDrainSeconds: r.num('SHUTDOWN_DRAIN_SECONDS', DEFAULT_SHUTDOWN_DRAIN_SECONDS, 0),
    bodyIdleTimeoutSeconds: r.num('BODY_IDLE_TIMEOUT_SECONDS', DEFAULT_BODY_IDLE_TIMEOUT_SECONDS, 1),
    streams: readStreamSettings(r),
  };
}

/** The upload limits (whoami shows them; recordings enforces them). */
export function readUploadLimits(r: EnvReader): { maxUploadMb: number; maxRecordingMinutes: number } {
  return { maxUploadMb: r.num('MAX_UPLOAD_MB', 500, 1), maxRecordingMinutes: r.num('MAX_RECORDING_MINUTES', 300, 1) };
}

/**
 * Characters an Ask reads per minute it costs: read by the ask service (the charge) and the
 * recordings service (the quotes) from the same variable, so that a quote is what the Ask charges.
 */
export function readAskCharsPerMinute(r: EnvReader): number {
  return r.num('ASK_CHARS_PER_MINUTE', ASK_PRICING.defaultCharsPerMinute, 1);
}
