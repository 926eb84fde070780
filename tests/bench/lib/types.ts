/**
 * The shapes every bench case shares. A case says which services it needs and returns a report;
 * the runner (../run.ts) starts the stack, runs the case, prints the report and stops the stack.
 */
import type { Stack } from './stack';

/** Services the bench can start (each is `services/<name>/src/main.ts`). */
export type ServiceName = 'gateway' | 'account' | 'recordings' | 'pipeline' | 'series' | 'ask' | 'events';

/** Infrastructure the bench runs privately (unless given a URL): its own NATS and Redis. */
export type InfraName = 'nats' | 'redis';

export interface BenchOptions {
  /** Tree whose services are started (default: this repository; another checkout to compare). */
  root: string;
  /** Seconds of each measured wrk run, after `warmup` seconds of unmeasured load. */
  duration: number;
  warmup: number;
  connections: number;
  threads: number;
  /** Ports of the bench stack (never the defaults, so a running `pnpm start` is left alone). */
  ports: Partial<Record<ServiceName | InfraName, number>>;
  databaseUrl: string;
  /**
   * NATS and Redis of the stack. null (the default): the bench starts its own nats-server and
   * redis-server, so no other stack on the machine (tests, `pnpm start`) shares its JetStream
   * state, rate-limit counters or access epoch.
   */
  natsUrl: string | null;
  redisUrl: string | null;
  /** Extra environment for every service (`--service-env KEY=VALUE`), applied last. */
  serviceEnv: Record<string, string>;
  /** Services to run under `node --cpu-prof` (profiles land in `logDir/prof`). */
  cpuProf: ServiceName[];
  /** Service logs, profiles and raw wrk output. */
  logDir: string;
  /**
   * A directory made by `pnpm build:services` (deploy/build.sh): each service runs as
   * `node DIR/<service>/src/main.js`, the compiled JavaScript the images run; null: tsx on the sources.
   */
  compiled: string | null;
  /** `--tsx`: the cases measured compiled by default (BenchCase.compiledByDefault) run the sources too. */
  tsx: boolean;
  /**
   * `--routes`: the routes case measures only these operationIds (a call with a body only when
   * named here); null: every one. For a quick comparison of a change on a few routes.
   */
  routes: string[] | null;
  /**
   * `--hops`: local (as `pnpm start` runs every service on one machine: the gateway forwards over
   * Unix sockets in `logDir/sockets`, the services reach Postgres over its socket) or tcp (every
   * hop on TCP, as between Kubernetes pods).
   */
  hops: 'local' | 'tcp';
  /** True when the database URL was given (`--database-url`, BENCH_DATABASE_URL): used as it is. */
  databaseUrlGiven: boolean;
}

/** A PASS/FAIL line printed under a case's table. */
export interface TargetCheck {
  label: string;
  pass: boolean;
  /** The measured values the verdict is based on. */
  measured: string;
}

export interface Table {
  headers: string[];
  /** Cells already formatted; columns after the first are right-aligned. */
  rows: string[][];
}

export interface CaseReport {
  tables: Array<{ title: string; table: Table }>;
  /** Lines printed after the tables (ratios, CPU shares, notes). */
  lines: string[];
  targets: TargetCheck[];
  /** Raw figures, kept in results.json for comparing runs. */
  data?: unknown;
  /** One line for the summary printed at the end of a run (the case's headline numbers). */
  summary?: string;
}

export interface CaseContext {
  opts: BenchOptions;
  /** The running stack with the services the case asked for. */
  stack: Stack;
  log(message: string): void;
  /** Throws when the run was interrupted (Ctrl-C); call between long steps. */
  checkAborted(): void;
  /**
   * A temporary directory of this case (generated audio, the services' audio store), made before
   * the services start and removed after they stop.
   */
  scratchDir: string;
}

export interface BenchCase {
  /** What `--only` selects. */
  name: string;
  description: string;
  /** False for a declared case nobody has written yet: listed, never run. */
  implemented: boolean;
  /** Services started for the case, in start order (dependencies first). */
  services: ServiceName[];
  /**
   * Measured on the compiled JavaScript the images run, built by the bench itself (deploy/build.sh)
   * unless `--compiled DIR` names a build or `--tsx` asks for the sources.
   */
  compiledByDefault?: boolean;
  /**
   * Environment for this case's services, before `--service-env`. A function gets the case's
   * scratch directory (see CaseContext.scratchDir), e.g. for an `AUDIO_STORE` that is removed afterwards.
   */
  env?: Record<string, string> | ((scratchDir: string) => Record<string, string> | Promise<Record<string, string>>);
  /** Stops what `env` started for the case (e.g. an S3 server), after the services stopped. */
  teardown?(): Promise<void>;
  run(ctx: CaseContext): Promise<CaseReport>;
}

/** A bench that cannot give a trustworthy number (error responses, a dead service): fails the run. */
export class BenchError extends Error {
  override name = 'BenchError';
}
