/**
 * The uploads a replica is working on, so shutdown can let them finish or let their claims go:
 * an upload cut off by shutdown must not leave its Idempotency-Key claimed (a retry would be told
 * UPLOAD_IN_PROGRESS until the claim goes stale, 15 minutes later).
 */
export class UploadsInFlight {
  private readonly open = new Set<{ work: Promise<unknown>; release: () => Promise<void> }>();

  /** Follows one upload; `release` drops its claim (a no-op once the upload has completed it). */
  track(work: Promise<unknown>, release: () => Promise<void>): void {
    const entry = { work, release };
    this.open.add(entry);
    void work.then(
      () => this.open.delete(entry),
      () => this.open.delete(entry),
    );
  }

  /** Waits up to `graceMs` for the uploads in flight, then drops the claims of those still running. */
  async drain(graceMs: number): Promise<void> {
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([
      Promise.allSettled([...this.open].map((e) => e.work)),
      new Promise((r) => (timer = setTimeout(r, graceMs))),
    ]);
    clearTimeout(timer);
    await Promise.allSettled([...this.open].map((e) => e.release()));
  }
}
