import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import type { Logger } from 'pino';
import { allowBody, closeAfterEarlyAnswer, isMultipartPost, PRINCIPAL_HEADER, writeError } from '@mm/http';

const agent = new http.Agent({ keepAlive: true, maxSockets: 512, keepAliveMsecs: 30_000 });

/** Headers never forwarded: credentials, hop-by-hop headers, and anything internal a client forged. */
const DROP = new Set(['authorization', 'cookie', 'host', 'connection', 'keep-alive', 'proxy-authorization', 'te', 'trailer', 'upgrade', 'expect']);
const DROP_BACK = new Set(['connection', 'keep-alive', 'transfer-encoding']);

/** How long an upload waits for the owning service's 100 Continue before its body is sent anyway (curl waits 1 s). */
const CONTINUE_WAIT_MS = 1000;

const targets = new Map<string, URL>();

export interface ForwardOptions {
  target: string;
  path: string;
  principal: string | null;
  reqId: string;
  clientIp: string;
  /** Where a failure to reach the owning service is logged (with an error id and the request id). */
  logger: Logger;
  /** A body to send instead of the request's own stream (the admin API parses JSON first). */
  body?: Buffer;
  /** Sends the request without its body (the client's body is read and dropped by node). */
  withoutBody?: boolean;
  /** Internal headers the gateway adds (x-mm-*). */
  internal?: Record<string, string>;
}

/**
 * Forwards a request to an owning service with the signed principal, streaming both bodies
 * (uploads are never held whole in memory).
 */
export function forward(req: IncomingMessage, res: ServerResponse, o: ForwardOptions): void {
  const headers: http.OutgoingHttpHeaders = {};
  for (const [k, v] of Object.entries(req.headers)) {
    if (DROP.has(k) || k.startsWith('x-mm-')) continue;
    headers[k] = v;
  }
  if (o.principal) headers[PRINCIPAL_HEADER] = o.principal;
  Object.assign(headers, o.internal);
  headers['x-request-id'] = o.reqId;
  headers['x-forwarded-for'] = o.clientIp;
  if (o.body) {
    headers['content-type'] = 'application/json';
    headers['content-length'] = String(o.body.length);
    delete headers['transfer-encoding'];
  } else if (o.withoutBody) {
    headers['content-length'] = '0';
    for (const h of ['transfer-encoding', 'content-type', 'content-encoding']) delete headers[h];
  }
  const streams = !o.body && !o.withoutBody;
  // A multipart upload is sent only once the owning service asks for it (100 Continue, after its
  // Idempotency-Key and wallet checks): a refused one never moves its bytes (early-answer.ts).
  const asks = streams && isMultipartPost(req);
  if (asks) headers.expect = '100-continue';
  let url = targets.get(o.target);
  if (!url) {
    url = new URL(o.target);
    targets.set(o.target, url);
  }
  let sending = false;
  let waiting: NodeJS.Timeout | null = null;
  const upstream = http.request({ host: url.hostname, port: url.port, method: req.method, path: o.path, headers, agent }, (up) => {
    if (waiting) clearTimeout(waiting);
    const back: http.OutgoingHttpHeaders = {};
    for (const [k, v] of Object.entries(up.headers)) if (v !== undefined && !DROP_BACK.has(k) && k !== 'x-request-id') back[k] = v;
    if (!req.complete) {
      // The service answered before reading the whole body (a refused upload, or a replay-only
      // request sent without it): what it did not ask for stays on the client's connection. A
      // small rest is read and dropped, keeping the connection; a large one is not read: the
      // answer closes the connection (early-answer.ts).
      if (sending) {
        req.unpipe(upstream);
        req.resume();
      }
      closeAfterEarlyAnswer(req, res);
      if (streams) up.once('end', () => upstream.destroy());
    }
    res.writeHead(up.statusCode ?? 502, back);
    up.pipe(res);
  });
  const send = (): void => {
    if (sending || upstream.destroyed || res.headersSent) return;
    sending = true;
    if (waiting) clearTimeout(waiting);
    // A client that asked `Expect: 100-continue` of the gateway gets the service's 100 now.
    allowBody(req, res);
    req.pipe(upstream);
  };
  upstream.on('error', (err) => {
    if (waiting) clearTimeout(waiting);
    // The answer is already with the client (an early answer whose request was cut short).
    if (res.writableFinished) return;
    // The client went away mid-request: nobody is left to answer.
    if (req.destroyed && !req.complete) return;
    // An owning service that does not answer is an unexpected failure: 500, the code alone (contract).
    // Wrapped: its ECONNRESET is the service's, not a body the client cut short (that is a 400).
    writeError(res, new Error(`the owning service failed: ${err.message}`, { cause: err }), o.logger, o.reqId);
  });
  req.on('aborted', () => upstream.destroy());
  if (asks) {
    upstream.on('continue', send);
    // A service that never asks (it does not know Expect) still gets the body, a little later.
    waiting = setTimeout(send, CONTINUE_WAIT_MS);
    upstream.flushHeaders();
  } else if (streams) req.pipe(upstream);
  else upstream.end(o.body);
}
