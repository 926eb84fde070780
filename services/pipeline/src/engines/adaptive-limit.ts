/**
 * Requests to the remote recognizer in flight at once, for the whole process: at most `max`,
 * halved when the server says it is over its rate (429) and raised by one again after a run of
 * answers without one. A 429's Retry-After also holds every new request until it has passed,
 * since the limit it reports is the account's, not one request's.
 */
export class AdaptiveLimit {
  private limit: number;
  private active = 0;
  private okSince = 0;
  private holdUntil = 0;
  private readonly waiting: Array<() => void> = [];

  constructor(
    readonly max: number,
    /** Answers without a 429 before the limit rises by one. */
    private readonly raiseAfter = 8,
  ) {
    this.limit = Math.max(1, max);
  }

  /** Requests allowed in flight now. */
  get current(): number {
    return this.limit;
  }

  async run<T>(fn: () => Promise<T>): Promise<T> {
    await this.acquire();
    try {
      return await fn();
    } finally {
      this.active--;
      this.wake();
    }
  }

  /** The server refused for rate: fewer at once, and nobody new before `waitMs` has passed. */
  rateLimited(waitMs: number): void {
    this.limit = Math.max(1, Math.floor(this.limit / 2));
    this.okSince = 0;
    this.holdUntil = Math.max(this.holdUntil, Date.now() + waitMs);
  }

  /** An answer that was not a 429. */
  succeeded(): void {
    if (this.limit >= this.max) return;
    if (++this.okSince >= this.raiseAfter) {
      this.limit++;
      this.okSince = 0;
      this.wake();
    }
  }

  private async acquire(): Promise<void> {
    for (;;) {
      const hold = this.holdUntil - Date.now();
      if (hold > 0) {
        await new Promise((resolve) => setTimeout(resolve, hold));
        continue;
      }
      if (this.active < this.limit) {
        this.active++;
        return;
      }
      await new Promise<void>((resolve) => this.waiting.push(resolve));
    }
  }

  private wake(): void {
    // Everyone waiting re-checks; those that do not fit wait again (few pieces wait at once).
    for (const resolve of this.waiting.splice(0)) resolve();
  }
}
