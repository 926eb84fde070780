import { JSONCodec, type Msg, type NatsConnection, type Subscription } from 'nats';
import { BUS_GENERIC_REFUSALS, type BusEntry, type ErrorCode, type RequestEntry } from '@mm/contract';
import type { Principal } from '@mm/platform';
import { contextOf, wireSubject } from './connection';
import { inboxPrefix } from './names';
import { Replies } from './replies';
import { BusContractError, check, PRINCIPAL_HEADER, strictSending, versionHeaders, versionOf } from './table';

const codec = JSONCodec<unknown>();

/** An error that crossed the bus: the contract's code, message and details. */
export class RemoteError extends Error {
  constructor(
    readonly code: string,
    message: string,
    readonly details?: Record<string, unknown>,
    /** Response headers the refusal carries, such as Retry-After. */
    readonly headers?: Record<string, string>,
  ) {
    super(message);
  }
}

type Reply =
  | { ok: true; result: unknown }
  | {
      ok: false;
      error: { code: string; message: string; details?: Record<string, unknown>; headers?: Record<string, string> };
    };

/** Whether an error is a refusal the entry's row of the table names (a spend refused for money, say). */
export function refusedBy(entry: BusEntry<any, any>, err: unknown): err is RemoteError & { code: ErrorCode } {
  return err instanceof RemoteError && (entry.refusals as readonly string[]).includes(err.code);
}

export interface RequestOptions {
  timeoutMs?: number;
  /** Requests made for a caller (`principal` in the table): the caller, signed by the bus. */
  principal?: Principal;
  /** Tests only: send a payload that breaks the table, to see the owner refuse it. */
  unchecked?: boolean;
}

/**
 * Sends a message that broke the table: refused in strict mode (tests, development, and production
 * unless BUS_STRICT=0), else counted and sent.
 */
function checkOutgoing(nc: NatsConnection, entry: BusEntry<any, any>, what: 'payload' | 'reply', value: unknown): void {
  try {
    check(entry, what, value);
  } catch (err) {
    contextOf(nc).counters.invalid.inc({ subject: entry.subject, direction: 'out' });
    if (strictSending()) throw err;
  }
}

let turnEnds: Promise<void> | null = null;
/**
 * Resolves once the current turn's I/O callbacks have run (setImmediate), the same promise for
 * every caller of the turn. The client writes what was published in one run of microtasks in one
 * write, so requests that wait for it leave together: under load a service's bus requests of one
 * turn (the quotes, counts and checks of the reads that arrived together) cost one write and one
 * wake-up of the broker instead of one each. Alone, a request waits for nothing but its turn's end.
 */
function endOfTurn(): Promise<void> {
  turnEnds ??= new Promise((resolve) =>
    setImmediate(() => {
      turnEnds = null;
      resolve();
    }),
  );
  return turnEnds;
}

/**
 * Asks a question of the entry's owner (request/reply). The payload and the reply are checked
 * against the table; a refusal arrives as a RemoteError carrying the contract's code; no answer
 * in time is a NoAnswerError (so is nothing serving the subject, or the connection closing).
 */
export async function request<P, R>(
  nc: NatsConnection,
  entry: RequestEntry<P, R>,
  payload: P,
  opts: RequestOptions = {},
): Promise<R> {
  if (!opts.unchecked) checkOutgoing(nc, entry, 'payload', payload);
  const ctx = contextOf(nc);
  const extra: Record<string, string> = {};
  if (entry.principal) {
    if (!opts.principal) throw new BusContractError(entry.subject, 'a request made for a caller needs the caller');
    if (!ctx.signatures)
      throw new BusContractError(entry.subject, 'this connection has no internal secret to sign the caller with');
    // The verified caller this service was handed (the same object while the gateway reuses its
    // signature) is signed once for a while, so the receiving service's verifier remembers it too.
    extra[PRINCIPAL_HEADER] = await ctx.signatures.sign(opts.principal, (p) => p);
  }
  const data = codec.encode(payload);
  await endOfTurn();
  ctx.replies ??= new Replies(nc, inboxPrefix(ctx.service));
  const msg = await ctx.replies.request(
    wireSubject(nc, entry.subject),
    data,
    versionHeaders(entry.version, extra),
    opts.timeoutMs ?? 5000,
  );
  const reply = codec.decode(msg.data) as Reply;
  if (!reply || typeof reply !== 'object') throw new BusContractError(entry.subject, 'the reply is not an envelope');
  if (!reply.ok) throw new RemoteError(reply.error.code, reply.error.message, reply.error.details, reply.error.headers);
  check(entry, 'reply', reply.result);
  return reply.result as R;
}

/** What a handler of a request learns beyond the payload. */
export interface Served {
  /** The verified caller, for entries made for a caller. */
  principal: Principal | null;
  version: number;
}

/**
 * Answers an entry's requests in a queue group, so replicas share the work. The payload is
 * checked (a bad one is refused with VALIDATION), the caller's signature too where the entry
 * acts for a caller (UNAUTHORIZED when missing or forged), and the reply before it leaves.
 * Errors with a `code` travel back as refusals; anything else answers INTERNAL_ERROR and is
 * logged by `onError`.
 */
export function serve<P, R>(
  nc: NatsConnection,
  entry: RequestEntry<P, R>,
  handler: (payload: P, served: Served) => Promise<R>,
  onError: (err: unknown) => void,
): Subscription {
  const ctx = contextOf(nc);
  const allowed = new Set<string>([...entry.refusals, ...BUS_GENERIC_REFUSALS]);
  const answer = async (msg: Msg): Promise<Reply> => {
    try {
      const version = versionOf(msg.headers);
      let payload: unknown;
      try {
        payload = codec.decode(msg.data);
      } catch {
        throw new BusContractError(entry.subject, 'the payload is not JSON');
      }
      try {
        check(entry, 'payload', payload, version);
      } catch (err) {
        ctx.counters.invalid.inc({ subject: entry.subject, direction: 'in' });
        throw err;
      }
      let principal: Principal | null = null;
      if (entry.principal) {
        if (!ctx.verifier)
          throw Object.assign(new Error('no internal secret to verify callers with'), { internal: true });
        principal = await ctx.verifier.verify(msg.headers?.get(PRINCIPAL_HEADER) || undefined);
      }
      const result = await handler(payload as P, { principal, version });
      try {
        checkOutgoing(nc, entry, 'reply', result);
      } catch (err) {
        // Our own reply breaks the table: a bug here, not the requester's fault.
        onError(err);
        return { ok: false, error: { code: 'INTERNAL_ERROR', message: 'Unexpected failure.' } };
      }
      return { ok: true, result };
    } catch (e) {
      const coded = e as {
        code?: unknown;
        message?: string;
        details?: Record<string, unknown>;
        headers?: Record<string, string>;
      };
      if (typeof coded.code === 'string' && allowed.has(coded.code)) {
        return {
          ok: false,
          error: {
            code: coded.code,
            message: coded.message ?? coded.code,
            details: coded.details,
            headers: coded.headers,
          },
        };
      }
      onError(e);
      return { ok: false, error: { code: 'INTERNAL_ERROR', message: 'Unexpected failure.' } };
    }
  };
  return nc.subscribe(wireSubject(nc, entry.subject), {
    queue: entry.subject,
    callback: (err, msg) => {
      if (err) return onError(err);
      void answer(msg).then((reply) => msg.respond(codec.encode(reply)));
    },
  });
}
