import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';

/**
 * Bodies that are refused before they are read: an upload answered 402, 429 or 401 costs its
 * sender the bytes, not us.
 *
 * Two halves. `Expect: 100-continue` (curl sends it for large bodies, the gateway sends it to the
 * services for multipart uploads): a server given `deferContinue` (serve()) leaves the 100 to the
 * handler, which calls `allowBody` once it has decided to read; an answer given instead tells
 * the client not to send the body (node then closes the connection; a client that stopped
 * waiting and sent it anyway still reads the answer: lingerBeforeClose). And for clients that send
 * without asking: `closeAfterEarlyAnswer` closes the connection after the answer instead of
 * reading the rest of a large body off the wire, the way Go's net/http does (it reads at most
 * 256 KiB of an unread body to keep a connection, and otherwise answers `Connection: close`,
 * half-closes and waits 500 ms before closing, so the client reads the answer before a reset).
 */

/** Requests whose client asked `Expect: 100-continue` and has not had its 100 yet. */
const awaiting = new WeakSet<IncomingMessage>();

/** A remainder this small is read and dropped (node's default), keeping the connection. */
export const EARLY_ANSWER_DRAIN_BYTES = 256 * 1024;
/** After an early answer: how long the connection lingers, and how much of the body it reads meanwhile. */
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
 * EARLY_ANSWER_DRAIN_BYTES may still be coming, the answer says `Connection: close` and the
 * connection lingers before it is closed (lingerBeforeClose). A small remainder is read and
 * dropped by node as usual, and the connection kept.
 */
export function closeAfterEarlyAnswer(req: IncomingMessage, res: ServerResponse): void {
  if (req.complete || res.headersSent) return;
  // A client still waiting for the 100 is answered `Connection: close` by node itself; it may
  // still send the body (it waited long enough), so the close lingers all the same.
  if (!awaitsContinue(req)) {
    if (!remainderIsLarge(req)) return;
    res.setHeader('connection', 'close');
  }
  lingerBeforeClose(req, res);
}

/** Requests whose answer's close already lingers (serve() and closeAfterEarlyAnswer both ask). */
const lingering = new WeakSet<IncomingMessage>();

/**
 * When the answer to this request closes its connection while the body is still arriving, the
 * connection lingers instead of closing at once. Closing a socket with unread bytes sends a reset,
 * and a client still writing its body when the reset comes loses the answer waiting in its socket
 * (node's client reports EPIPE or ECONNRESET and never reads it: the gateway then answered 500
 * for a service's refusal). Lingering: the socket is half-closed after the answer, the body is
 * read and dropped up to EARLY_ANSWER_LINGER_BYTES and then no longer read (the client's writes
 * block rather than fail), and the socket closes once the client closes its side, the body has
 * all arrived, or EARLY_ANSWER_LINGER_MS have passed: a huge body is never read whole. serve()
 * asks it for every request with a body; an answer that keeps the connection changes nothing.
 */
export function lingerBeforeClose(req: IncomingMessage, res: ServerResponse): void {
  if (lingering.has(req)) return;
  lingering.add(req);
  // Before node's own 'finish' handler, which would drop the rest of the body unseen and unbounded.
  res.once('prefinish', () => {
    if (req.complete || !closesAfterAnswer(req, res)) return;
    dropBounded(req);
    const socket = req.socket;
    const closeSoon = socket.destroySoon;
    socket.destroySoon = function lingeringClose(this: Socket): void {
      if (req.complete || this.destroyed) return closeSoon.call(this);
      linger(this, req);
    };
  });
}

/**
 * Node closes after a final answer to a request whose 100 Continue was not sent; otherwise a
 * `Connection: close` set with setHeader says so (closeAfterEarlyAnswer, a draining serve()).
 */
function closesAfterAnswer(req: IncomingMessage, res: ServerResponse): boolean {
  return awaitsContinue(req) || /\bclose\b/i.test(String(res.getHeader('connection') ?? ''));
}

/** Reads the rest of the body and drops it, up to EARLY_ANSWER_LINGER_BYTES; then leaves it unread. */
function dropBounded(req: IncomingMessage): void {
  let read = 0;
  const drop = (chunk: Buffer): void => {
    read += chunk.length;
    if (read <= EARLY_ANSWER_LINGER_BYTES) return;
    req.off('data', drop);
    req.pause();
  };
  req.on('data', drop);
  req.resume();
}

function linger(socket: Socket, req: IncomingMessage): void {
  const cut = () => socket.destroy();
  socket.end();
  const timer = setTimeout(cut, EARLY_ANSWER_LINGER_MS);
  timer.unref();
  socket.once('close', () => clearTimeout(timer));
  // The client read the answer and closed its side, or the whole body came: nothing more is coming.
  socket.once('end', cut);
  req.once('end', cut);
}

/** A multipart upload: the bodies worth not reading when they are refused. */
export function isMultipartPost(req: IncomingMessage): boolean {
  return req.method === 'POST' && /^multipart\//i.test(req.headers['content-type'] ?? '');
}
