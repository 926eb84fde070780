import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';

/**
 * Bodies that are refused before they are read: an upload answered 402, 429 or 401 costs its
 * sender the bytes, not us.
 *
 * Two halves. `Expect: 100-continue` (curl sends it for large bodies, the gateway sends it to the
 * services for multipart uploads): a server given `deferContinue` (serve()) leaves the 100 to the
 * handler, which calls `allowBody` once it has decided to read; an answer given instead tells
 * the client never to send the body (node then closes the connection). And for clients that send
 * without asking: `closeAfterEarlyAnswer` closes the connection after the answer instead of
 * reading the rest of a large body off the wire, the way Go's net/http does (it reads at most
 * 256 KiB of an unread body to keep a connection, and otherwise answers `Connection: close`,
 * half-closes and waits 500 ms before closing, so the client reads the answer before a reset).
 */

/** Requests whose client asked `Expect: 100-continue` and has not had its 100 yet. */
const awaiting = new WeakSet<IncomingMessage>();

/** A remainder this small is read and dropped (node's default), keeping the connection. */
export const EARLY_ANSWER_DRAIN_BYTES = 256 * 1024;
/** After an early answer: how long and how much more the connection is read before it is cut. */
export const EARLY_ANSWER_LINGER_MS = 500;
export const EARLY_ANSWER_LINGER_BYTES = 256 * 1024;

/** serve()'s checkContinue: the handler, not node, sends the 100 (see allowBody). */
export function markAwaitingContinue(req: IncomingMessage): void {
  awaiting.add(req);
}

/** Whether the client asked `Expect: 100-continue` and is still waiting for the 100. */
export function awaitsContinue(req: IncomingMessage): boolean {
  return awaiting.has(req);
}

/** The handler is about to read the body: a client waiting on `Expect: 100-continue` may send it. */
export function allowBody(req: IncomingMessage, res: ServerResponse): void {
  if (!awaiting.delete(req)) return;
  if (!res.headersSent && !res.writableEnded) res.writeContinue();
}

function remainderIsLarge(req: IncomingMessage): boolean {
  if (req.headers['transfer-encoding'] !== undefined) return true;
  const declared = Number(req.headers['content-length'] ?? 0);
  if (!Number.isFinite(declared)) return true;
  return declared > EARLY_ANSWER_DRAIN_BYTES;
}

/**
 * Call before answering a request whose body may not have been read (a refusal): when more than
 * EARLY_ANSWER_DRAIN_BYTES may still be coming, the answer says `Connection: close`, the socket
 * is half-closed after it, and read only until the client closes, EARLY_ANSWER_LINGER_BYTES
 * more arrive or EARLY_ANSWER_LINGER_MS pass; then it is closed. A small remainder is read and
 * dropped by node as usual, and the connection kept.
 */
export function closeAfterEarlyAnswer(req: IncomingMessage, res: ServerResponse): void {
  if (req.complete || res.headersSent) return;
  // A client still waiting for the 100 sends no body: node closes the connection by itself.
  if (awaitsContinue(req) || !remainderIsLarge(req)) return;
  res.setHeader('connection', 'close');
  // With `Connection: close` node calls destroySoon once the answer is written (after starting to
  // drop the body); lingering instead keeps the client from a reset before it reads the answer.
  const socket = req.socket;
  socket.destroySoon = function lingeringClose(this: Socket): void {
    const cut = () => this.destroy();
    this.end();
    const timer = setTimeout(cut, EARLY_ANSWER_LINGER_MS);
    timer.unref();
    this.once('close', () => clearTimeout(timer));
    // The client read the answer and closed its side: nothing more is coming.
    this.once('end', cut);
    let read = 0;
    req.on('data', (chunk: Buffer) => {
      read += chunk.length;
      if (read > EARLY_ANSWER_LINGER_BYTES) cut();
    });
    req.resume();
  };
}

/** A multipart upload: the bodies worth not reading when they are refused. */
export function isMultipartPost(req: IncomingMessage): boolean {
  return req.method === 'POST' && /^multipart\//i.test(req.headers['content-type'] ?? '');
}
