import { createInbox, type Msg, type MsgHdrs, type NatsConnection } from 'nats';

/** Why a request got no answer: none in time, nobody serves the subject, or the connection closed. */
export type NoAnswer = 'TIMEOUT' | 'NO_RESPONDERS' | 'CLOSED';

/** A request that got no answer; `code` says why and the message names the subject. */
export class NoAnswerError extends Error {
  constructor(
    readonly code: NoAnswer,
    message: string,
  ) {
    super(message);
  }
}

interface Pending {
  resolve: (msg: Msg) => void;
  reject: (err: Error) => void;
  /** Date.now() past which it times out. */
  deadline: number;
  subject: string;
  timeoutMs: number;
}

/** How often requests past their deadline are looked for: a timeout fires up to this late. */
export const SWEEP_MS = 100;

/**
 * Request/reply over one subscription to the connection's inbox, as nats.js's `request` works,
 * without its costs per request: it builds a NatsError (a stack captured) to settle every request
 * that did get its answer, a timer promise and a deferred each. Here a request is an entry in a map,
 * settled by the reply's token; one interval, running while requests are in flight, times out the
 * late ones. The server's "no responders" status (an empty reply with code 503) fails at once.
 */
export class Replies {
  private readonly inbox: string;
  private readonly pending = new Map<string, Pending>();
  private next = 0;
  private sweeper: NodeJS.Timeout | null = null;

  constructor(
    private readonly nc: NatsConnection,
    inboxPrefix: string,
  ) {
    this.inbox = createInbox(inboxPrefix);
    nc.subscribe(`${this.inbox}.*`, {
      // An error here is the broker refusing the inbox (its permissions): every request fails.
      callback: (err, msg) =>
        err ? this.failAll('CLOSED', `the reply inbox failed: ${err.message}`) : this.settle(msg),
    });
    void nc.closed().then(() => this.failAll('CLOSED', 'the bus connection closed'));
  }

  /** Publishes `data` to `subject` with a reply address; resolves with the first reply. */
  request(subject: string, data: Uint8Array, headers: MsgHdrs, timeoutMs: number): Promise<Msg> {
    const token = (this.next++).toString(36);
    return new Promise<Msg>((resolve, reject) => {
      this.pending.set(token, { resolve, reject, deadline: Date.now() + timeoutMs, subject, timeoutMs });
      this.sweeper ??= setInterval(() => this.sweep(), SWEEP_MS).unref();
      try {
        this.nc.publish(subject, data, { reply: `${this.inbox}.${token}`, headers });
      } catch (err) {
        this.pending.delete(token);
        reject(err as Error);
      }
    });
  }

  /** Requests waiting for their answer. */
  get inFlight(): number {
    return this.pending.size;
  }

  private settle(msg: Msg): void {
    const token = msg.subject.slice(this.inbox.length + 1);
    const p = this.pending.get(token);
    // An answer after its request timed out: nobody waits for it any more.
    if (!p) return;
    this.pending.delete(token);
    if (msg.data.length === 0 && msg.headers?.code === 503)
      p.reject(new NoAnswerError('NO_RESPONDERS', `nothing serves ${p.subject} on the bus`));
    else p.resolve(msg);
  }

  private sweep(): void {
    const now = Date.now();
    for (const [token, p] of this.pending) {
      if (p.deadline > now) continue;
      this.pending.delete(token);
      p.reject(new NoAnswerError('TIMEOUT', `no answer from ${p.subject} in ${p.timeoutMs} ms`));
    }
    if (this.pending.size === 0 && this.sweeper) {
      clearInterval(this.sweeper);
      this.sweeper = null;
    }
  }

  private failAll(code: NoAnswer, why: string): void {
    for (const [token, p] of this.pending) {
      this.pending.delete(token);
      p.reject(new NoAnswerError(code, `${p.subject}: ${why}`));
    }
    if (this.sweeper) clearInterval(this.sweeper);
    this.sweeper = null;
  }
}
