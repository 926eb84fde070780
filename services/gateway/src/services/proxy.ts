import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import type { Logger } from 'pino';
import { Pool } from 'undici';
import { allowBody, closeAfterEarlyAnswer, isMultipartPost, PRINCIPAL_HEADER, writeError } from '@mm/http';

const agent = new http.Agent({ keepAlive: true, maxSockets: 512, keepAliveMsecs: 30_000 });

/** Headers never forwarded: credentials, hop-by-hop headers, and anything internal a client forged. */
const DROP = new Set([
  'authorization',
  'cookie',
  'host',
  'connection',
  'keep-alive',
  'proxy-authorization',
  'te',
  'trailer',
  'upgrade',
  'expect',
]);
/**
 * Headers of a service's answer never passed back: hop-by-hop ones, its own request id (the
 * gateway's is sent), and internal ones (x-mm-*).
 */
const DROP_BACK = new Set(['connection', 'keep-alive', 'transfer-encoding', 'x-request-id']);
const dropsBack = (name: string): boolean => DROP_BACK.has(name) || name.startsWith('x-mm-');

/** An owning service that does not answer is an unexpected failure: 500, the code alone (contract). */
function answerServiceFailure(res: ServerResponse, err: Error, o: ForwardOptions): void {
  // Wrapped: its ECONNRESET is the service's, not a body the client cut short (that is a 400).
  writeError(res, new Error(`the owning service failed: ${err.message}`, { cause: err }), o.logger, o.reqId);
}

/** How long an upload waits for the owning service's 100 Continue before its body is sent anyway (curl waits 1 s). */
const CONTINUE_WAIT_MS = 1000;

const targets = new Map<string, URL>();

export interface ForwardOptions {
  target: string;
  /** Reaches the target over this Unix socket instead of TCP (LOCAL_SOCKET_DIR: every service on one machine). */
  socketPath?: string;
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
  /** Where a read (a GET without a body) goes instead of node:http's client, and whether it is quick (may share a connection with other quick reads). */
  reads?: { pipelines: ReadPipelines; pipelined: boolean };
}

/** A slow client's answer the gateway holds rather than pause a shared connection; beyond, the client is dropped. */
const MAX_HELD_BYTES = 32 * 1024 * 1024;
/** A read whose service gives no headers, or stops sending its body, for this long fails (500) and frees its connection. */
const READ_TIMEOUT_MS = 30_000;

/**
 * Reads to the owning services, pipelined: one undici pool per service, whose connections each
 * carry up to `pipelining` GET requests in flight (HTTP/1.1 pipelining, answered in order). Under
 * load the requests of one event-loop turn leave in one write and their answers come back in one
 * read, on both sides of the hop, where node:http's client spends a connection turn (and its
 * syscalls) on every request: the whoami bench went from ~7,000 to ~8,900–9,800 requests/s on a
 * 2-core machine (docs/decisions.md). Header and path rules are node's own (same checks), so
 * nothing node:http's client would pass is refused here. Only GETs without a body come here
 * (idempotent: undici never pipelines anything else). Requests answer in order on a connection,
 * so a read that may be slow (`pipelined: false`: searches and price quotes, every rate class but
 * read) never shares a connection with the quick ones: those go on a pool of their own per service,
 * pipelined at most SLOW_PIPELINING deep, where one can wait only behind a few of its kind.
 *
 * A connection is shared by many callers, so no caller may hold it: an answer is never paused for
 * a client that reads it slowly (it waits in the gateway's memory instead; reads' answers are
 * bounded, the largest a bundle of a long meeting), and a client that leaves cancels its read
 * (undici resets the connection and sends the reads queued behind it again on a new one).
 */
/**
 * How deep reads that may be slow are pipelined, on their own connections: deep enough that the
 * searches and quotes of one turn leave in a few writes (the meeting quote +14–24% req/s, the
 * series quote +7–10%: docs/decisions.md, round 9), shallow enough that a slow one holds at most
 * three others.
 */
const SLOW_PIPELINING = 4;

export class ReadPipelines {
  /** Pools by service address: the quick reads' and the slow ones'. */
  private readonly pools = { quick: new Map<string, Pool>(), slow: new Map<string, Pool>() };
  constructor(private readonly opts: { pipelining: number; connections: number | null }) {}

  /** True when this request can go through a pipeline: a GET with no body of any kind. */
  static takes(req: IncomingMessage): boolean {
    return (
      req.method === 'GET' &&
      req.headers['content-length'] === undefined &&
      req.headers['transfer-encoding'] === undefined
    );
  }

  send(res: ServerResponse, o: ForwardOptions, headers: http.OutgoingHttpHeaders): void {
    const quick = o.reads?.pipelined === true;
    const pools = quick ? this.pools.quick : this.pools.slow;
    const key = o.socketPath ?? o.target;
    let pool = pools.get(key);
    if (!pool) {
      pool = new Pool(o.target, {
        socketPath: o.socketPath,
        pipelining: quick ? this.opts.pipelining : Math.min(this.opts.pipelining, SLOW_PIPELINING),
        connections: this.opts.connections,
        headersTimeout: READ_TIMEOUT_MS,
        bodyTimeout: READ_TIMEOUT_MS,
      });
      pools.set(key, pool);
    }
    let abort: ((err?: Error) => void) | null = null;
    let settled = false;
    const clientLeft = (): void => {
      if (!settled) abort?.();
    };
    res.once('close', clientLeft);
    const settle = (): boolean => {
      settled = true;
      res.off('close', clientLeft);
      return !res.destroyed;
    };
    pool.dispatch(
      {
        path: o.path,
        method: 'GET',
        headers: headers as Record<string, string | string[]>,
      },
      {
        onConnect(a) {
          abort = a;
          if (res.destroyed) a();
        },
        onHeaders(statusCode, raw) {
          if (res.destroyed) return true;
          // Header lines as the service sent them, read as latin1 (as node's parser reads them).
          const back: http.OutgoingHttpHeaders = {};
          for (let i = 0; i < raw.length; i += 2) {
            const k = raw[i].toString('latin1').toLowerCase();
            if (dropsBack(k)) continue;
            const v = raw[i + 1].toString('latin1');
            const had = back[k];
            back[k] = had === undefined ? v : [...(Array.isArray(had) ? had : [String(had)]), v];
          }
          res.writeHead(statusCode, back);
          return true;
        },
        onData(chunk) {
          if (res.destroyed) return true;
          res.write(chunk);
          // A client that reads nothing of a huge answer is let go (its close cancels the read).
          if (res.writableLength > MAX_HELD_BYTES) res.destroy();
          return true;
        },
        onComplete() {
          if (settle()) res.end();
        },
        onError(err) {
          if (!settle() || res.writableFinished) return;
          // Cut off mid-answer: the client cannot be told any more than a closed connection.
          if (res.headersSent) return void res.destroy();
          answerServiceFailure(res, err, o);
        },
      },
    );
  }

  async close(): Promise<void> {
    const all = [...this.pools.quick.values(), ...this.pools.slow.values()];
    this.pools.quick.clear();
    this.pools.slow.clear();
    await Promise.all(all.map((p) => p.close()));
  }
}

/**
 * Forwards a request to an owning service with the signed principal, streaming both bodies
 * (uploads are never held whole in memory).
 */
export function forward(req: IncomingMessage, res: ServerResponse, o: ForwardOptions): void {
  // The client's request died while the gateway checked it (a body cut short is answered 400 by
  // answerClientError): its 'aborted' has passed and will not fire again, so a request sent now
  // would wait for a body that never comes, holding the service's Idempotency-Key claim.
  if (req.destroyed && !req.complete) return;
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
  if (o.reads && streams && ReadPipelines.takes(req)) return o.reads.pipelines.send(res, o, headers);
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
  let answered = false;
  let waiting: NodeJS.Timeout | null = null;
  const upstream = http.request(
    {
      ...(o.socketPath ? { socketPath: o.socketPath } : { host: url.hostname, port: url.port }),
      method: req.method,
      path: o.path,
      headers,
      agent,
    },
    (up) => {
      answered = true;
      if (waiting) clearTimeout(waiting);
      // The gateway already answered (a body that stopped arriving: body-watch.ts): the service's own answer is dropped.
      if (res.headersSent) {
        up.resume();
        return void upstream.destroy();
      }
      const back: http.OutgoingHttpHeaders = {};
      for (const [k, v] of Object.entries(up.headers)) if (v !== undefined && !dropsBack(k)) back[k] = v;
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
      // Cut off mid-answer (a reset, or a close before the declared length): the client cannot be
      // told more than a closed connection, and must not wait for the rest.
      up.once('close', () => {
        if (!up.complete && !res.writableEnded) res.destroy();
      });
      up.pipe(res);
    },
  );
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
    // The service's answer came first: it is the answer. What fails after it is the rest of a body
    // the service refused and stopped reading (EPIPE, ECONNRESET); an answer itself cut short
    // closes the client's connection ('close' above).
    if (answered) return;
    // The answer is already with the client (an early answer whose request was cut short).
    if (res.writableFinished) return;
    // The client went away mid-request: nobody is left to answer.
    if (req.destroyed && !req.complete) return;
    answerServiceFailure(res, err, o);
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
