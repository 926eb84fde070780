/**
 * The shapes every bench case shares. A case says which services it needs and returns a report;
 * the runner (../run.ts) starts the stack, runs the case, prints the report and stops the stack.
 */
import type { Stack } from './stack';

/** Services the bench can start (each is `services/<name>/src/main.ts`). */
export type ServiceName = 'gateway' | 'account' | 'recordings' | 'pipeline' | 'series' | 'ask' | 'events';

export interface BenchOptions {
  /** Tree whose services are started (default: this repository; another checkout to compare). */
  root: string;
  /** Seconds of each measured wrk run, after `warmup` seconds of unmeasured load. */
  duration: number;
  warmup: number;
  connections: number;
  threads: number;
  /** Ports of the bench stack (never the defaults, so a running `pnpm start` is left alone). */
  ports: Partial<Record<ServiceName, number>>;
  databaseUrl: string;
  /** Extra environment for every service (`--service-env KEY=VALUE`), applied last. */
  serviceEnv: Record<string, string>;
  /** Services to run under `node --cpu-prof` (profiles land in `logDir/prof`). */
  cpuProf: ServiceName[];
  /** Service logs, profiles and raw wrk output. */
  logDir: string;
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
}

export interface CaseContext {
  opts: BenchOptions;
  /** The running stack with the services the case asked for. */
  stack: Stack;
  log(message: string): void;
  /** Throws when the run was interrupted (Ctrl-C); call between long steps. */
  checkAborted(): void;
}

export interface BenchCase {
  /** What `--only` selects. */
  name: string;
  description: string;
  /** False for a declared case nobody has written yet: listed, never run. */
  implemented: boolean;
  /** Services started for the case, in start order (dependencies first). */
  services: ServiceName[];
  /** Environment for this case's services, before `--service-env`. */
  env?: Record<string, string>;
  run(ctx: CaseContext): Promise<CaseReport>;
}

/** A bench that cannot give a trustworthy number (error responses, a dead service): fails the run. */
export class BenchError extends Error {
  override name = 'BenchError';
}
