import { JSONCodec, type NatsConnection, type Subscription } from 'nats';
import { wireSubject } from './connection';

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
  | { ok: false; error: { code: string; message: string; details?: Record<string, unknown>; headers?: Record<string, string> } };

/**
 * Asks a question over NATS request/reply (`account.wallet.hold`). A refusal arrives as a
 * RemoteError carrying the contract's code; no answer in time is a plain Error.
 */
export async function request<T>(nc: NatsConnection, subject: string, payload: unknown, timeoutMs = 5000): Promise<T> {
  const msg = await nc.request(wireSubject(nc, subject), codec.encode(payload), { timeout: timeoutMs });
  const reply = codec.decode(msg.data) as Reply;
  if (!reply.ok) throw new RemoteError(reply.error.code, reply.error.message, reply.error.details, reply.error.headers);
  return reply.result as T;
}

/**
 * Answers a request subject in a queue group, so replicas share the work. Errors with a `code`
 * travel back as refusals; anything else answers INTERNAL_ERROR and is logged by `onError`.
 */
export function serveRequests(
  nc: NatsConnection,
  subject: string,
  handler: (payload: unknown) => Promise<unknown>,
  onError: (err: unknown) => void,
): Subscription {
  return nc.subscribe(wireSubject(nc, subject), {
    queue: subject,
    callback: (err, msg) => {
      if (err) return onError(err);
      void (async () => {
        let reply: Reply;
        try {
          reply = { ok: true, result: await handler(codec.decode(msg.data)) };
        } catch (e) {
          const coded = e as { code?: unknown; message?: string; details?: Record<string, unknown>; headers?: Record<string, string> };
          if (typeof coded.code === 'string' && /^[A-Z_]+$/.test(coded.code)) {
            reply = { ok: false, error: { code: coded.code, message: coded.message ?? coded.code, details: coded.details, headers: coded.headers } };
          } else {
            onError(e);
            reply = { ok: false, error: { code: 'INTERNAL_ERROR', message: 'Unexpected failure.' } };
          }
        }
        msg.respond(codec.encode(reply));
      })();
    },
  });
}
