import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Logger } from 'pino';
import { ApiError } from '@mm/platform';
import { writeError } from './edge';

/** True when the request says a body follows (a non-zero Content-Length, or chunked). */
export function hasBody(req: IncomingMessage): boolean {
  const length = req.headers['content-length'];
  return req.headers['transfer-encoding'] !== undefined || (length !== undefined && length !== '0');
}

/**
 * Refuses a request whose body stops arriving while it is being read (a Content-Length larger
 * than what was sent, or a client that went quiet mid-upload): 400 VALIDATION once nothing came
 * for `idleMs`, and the connection closes. Without it the request would hold its connection and
 * its handler until the whole-request timeout (UPLOAD_REQUEST_TIMEOUT_MS, ~18 minutes).
 * Only time spent reading counts: a body nobody asked for yet (a deferred 100 Continue, a handler
 * still deciding) or one paused because its reader is behind is never the client's fault. Once an
 * answer has gone out (a refusal answered without reading, an upstream that answered first), the
 * rest of the body still may not stall: its connection is closed after the same quiet time.
 */
export function watchBody(req: IncomingMessage, res: ServerResponse, idleMs: number, logger: Logger): void {
  if (idleMs <= 0 || !hasBody(req)) return;
  const socket = req.socket;
  let seen = socket.bytesRead;
  let quietSince = Date.now();
  const timer = setInterval(
    () => {
      if (req.complete || req.destroyed) return clearInterval(timer);
      const read = socket.bytesRead;
      // Once the answer is out, the rest of the body is only read to be thrown away (node keeps the
      // connection for it): it still may not stall, or the connection stays held by nobody.
      if (read !== seen || (req.readableFlowing !== true && !res.writableFinished)) {
        seen = read;
        quietSince = Date.now();
        return;
      }
      if (Date.now() - quietSince < idleMs) return;
      clearInterval(timer);
      // Destroying the request (not only its socket) tells whoever reads it (a proxied upload, a
      // multipart parser holding an Idempotency-Key) that the rest is never coming.
      if (res.headersSent) return void (res.writableFinished ? socket.destroy() : req.destroy());
      res.setHeader('connection', 'close');
      writeError(
        res,
        new ApiError(
          'VALIDATION',
          `the request body stopped arriving: nothing came for ${Math.round(idleMs / 1000)} s`,
        ),
        logger,
      );
      res.once('finish', () => req.destroy());
    },
    Math.max(50, Math.floor(idleMs / 4)),
  );
  timer.unref();
}
