import { nextFairJob, type AccountUse, type WaitingJob } from '../domain/fair-order';

interface Parked extends WaitingJob {
  start: () => void;
  refuse: (err: Error) => void;
}

/** A task refused because the gate closed (the pipeline is stopping) before its turn came. */
export class GateClosedError extends Error {
  override name = 'GateClosedError';
}

/**
 * Runs at most `slots` tasks at once; when a slot frees up, the next task is chosen across
 * accounts by the fair-order rule (domain/fair-order.ts), not by arrival. The caller keeps the
 * waiting job's message alive meanwhile (the bus consumer heartbeats every message it holds).
 */
export class FairGate {
  private readonly waiting: Parked[] = [];
  private readonly use = new Map<string, AccountUse>();
  private running = 0;
  private arrivals = 0;
  private starts = 0;
  private closed = false;

  constructor(private readonly slots: number) {}

  async run<T>(account: string, task: () => Promise<T>): Promise<T> {
    await new Promise<void>((start, refuse) => {
      if (this.closed) return refuse(new GateClosedError('the pipeline is stopping'));
      this.waiting.push({ account, seq: this.arrivals++, start, refuse });
      this.pump();
    });
    try {
      return await task();
    } finally {
      this.running--;
      this.finished(account);
      this.pump();
    }
  }

  /**
   * Refuses every waiting task and any later one (running tasks finish): on shutdown the held
   * jobs go back to the queue at once (their handlers fail, so they are nak'ed) instead of each
   * running before the process may stop.
   */
  close(): void {
    this.closed = true;
    for (const job of this.waiting.splice(0)) job.refuse(new GateClosedError('the pipeline is stopping'));
  }

  /** Tasks waiting for a slot and tasks running, for logs and tests. */
  get depth(): { waiting: number; running: number } {
    return { waiting: this.waiting.length, running: this.running };
  }

  /** An account with nothing running or waiting is forgotten (the map stays as small as the queue). */
  private finished(account: string): void {
    const u = this.use.get(account)!;
    if (u.running > 1 || this.waiting.some((w) => w.account === account))
      this.use.set(account, { ...u, running: u.running - 1 });
    else this.use.delete(account);
  }

  private pump(): void {
    while (this.running < this.slots && this.waiting.length) {
      const [job] = this.waiting.splice(nextFairJob(this.waiting, this.use), 1);
      const u = this.use.get(job.account) ?? { running: 0, lastStart: null };
      this.use.set(job.account, { running: u.running + 1, lastStart: this.starts++ });
      this.running++;
      job.start();
    }
  }
}
