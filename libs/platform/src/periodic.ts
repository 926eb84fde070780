/** Where a periodic pass reports a failed pass (a pino logger is one). */
export interface PeriodicLog {
  warn(obj: object, msg: string): void;
}

export interface PeriodicOptions<T> {
  /** Time between two passes. */
  everyMs: number;
  /** What a failed pass answers (it is logged, and the next pass tries again). */
  failed: T;
  /** The log line of a failed pass, e.g. "trash purge failed; next pass will retry". */
  failureMessage: string;
  log: PeriodicLog;
  /** Runs a first pass at start() instead of waiting one interval. */
  runAtStart?: boolean;
}

/**
 * A background pass run every `everyMs` in each replica (sweepers: the trash purge, orphan holds,
 * the feed's retention): never two passes at once in a process (a pass still running when the
 * timer fires is that turn's pass), a failed pass logged and answered with `failed` (the next one
 * retries), the timer never keeping the process alive, and `stop()` waiting for the pass under
 * way. What each pass does to be safe beside other replicas (SKIP LOCKED, idempotent requests) is
 * the pass's own business.
 */
export class Periodic<T> {
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<T> | null = null;
  private stopping = false;

  constructor(
    private readonly pass: () => Promise<T>,
    private readonly opts: PeriodicOptions<T>,
  ) {}

  start(): void {
    if (this.timer) return;
    this.stopping = false;
    this.timer = setInterval(() => void this.runOnce(), this.opts.everyMs);
    this.timer.unref();
    if (this.opts.runAtStart) void this.runOnce();
  }

  /** True once stop() was called: a long pass checks it between its batches and ends early. */
  get stopped(): boolean {
    return this.stopping;
  }

  /** Stops the timer and waits for the pass under way (never fails). */
  async stop(): Promise<void> {
    this.stopping = true;
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.running;
  }

  /** One pass now, or the one under way; answers what it answered (`failed` if it failed). */
  runOnce(): Promise<T> {
    this.running ??= this.pass()
      .catch((err: unknown) => {
        this.opts.log.warn({ err }, this.opts.failureMessage);
        return this.opts.failed;
      })
      .finally(() => {
        this.running = null;
      });
    return this.running;
  }
}
