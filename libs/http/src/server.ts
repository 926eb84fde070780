import { chmodSync, rmSync } from 'node:fs';
import { createServer, type IncomingMessage, type RequestListener, type Server } from 'node:http';
import { createServer as createNetServer, type AddressInfo, type Server as NetServer, type Socket } from 'node:net';
import type { Logger } from 'pino';
import { lingerBeforeClose, markAwaitingContinue } from './early-answer';
import { DEFAULT_BODY_IDLE_TIMEOUT_SECONDS, DEFAULT_SHUTDOWN_DRAIN_SECONDS } from '@mm/platform';
import { hasBody, watchBody } from './body-watch';

/**
 * How long one request may take to arrive in full: the largest upload (MAX_UPLOAD_MB, 500 by
 * default) sent at 0.5 MB/s, plus a minute. Headers still have Node's 60 s (headersTimeout).
 */
export const UPLOAD_REQUEST_TIMEOUT_MS = (500 / 0.5 + 60) * 1000;

/** A listening service: its port, and a close that drains requests then runs the service's own cleanup. */
export interface Running {
  port: number;
  /** The address it listens on. */
  host?: string;
  /** The operator's port (/readyz, /metrics) of a service that has one apart from its main port. */
  opsPort?: number;
  close(): Promise<void>;
  /** True once `close` began: the service is going away (its readiness answers 503). */
  draining(): boolean;
  /** How long `close` keeps serving after answering /readyz 503 (so a load balancer stops sending first). */
  shutdownDelayMs?: number;
  /** How long `close` then waits for requests in flight (uploads) before it cuts their connections. */
  shutdownDrainMs?: number;
}

/**
 * Listens (port 0 picks a free one), and returns a close that drains: /readyz answers 503 at once,
 * requests are still served for `shutdownDelaySeconds` (Kubernetes takes the pod out of its
 * Service meanwhile), then no new connection is taken, open requests finish, and `onClose` runs
 * (consumers, pools).
 */
export async function serve(
  app: RequestListener,
  listen: {
    port: number;
    /** Default 127.0.0.1: only this machine (HOST in config.ts). */
    host?: string;
    shutdownDelaySeconds?: number;
    /**
     * How long requests in flight may still take once the delay is over and no new connection is
     * taken (default 5 s): then their connections are cut. Uploads of hundreds of MB need minutes
     * (Kubernetes: terminationGracePeriodSeconds above the delay plus this).
     */
    shutdownDrainSeconds?: number;
    /**
     * Requests with `Expect: 100-continue` whose 100 the handler sends (allowBody) once it has
     * decided to read the body; node answers the others' at once, as it does by default.
     */
    deferContinue?: (req: IncomingMessage) => boolean;
    /** A body being read that sends nothing this long is refused (body-watch.ts); 0 turns the check off. */
    bodyIdleTimeoutSeconds?: number;
    /**
     * A Unix socket to serve the same requests on, besides the port (LOCAL_SOCKET_DIR: every
     * service on one machine, the gateway forwarding over it). A stale file there is replaced.
     */
    listenSocket?: string | null;
  },
  logger: Logger,
  onClose: () => Promise<void>,
): Promise<Running> {
  const { port } = listen;
  const shutdownDelayMs = (listen.shutdownDelaySeconds ?? 0) * 1000;
  const shutdownDrainMs = (listen.shutdownDrainSeconds ?? DEFAULT_SHUTDOWN_DRAIN_SECONDS) * 1000;
  let draining = false;
  const bodyIdleMs = (listen.bodyIdleTimeoutSeconds ?? DEFAULT_BODY_IDLE_TIMEOUT_SECONDS) * 1000;
  const listener: RequestListener = (req, res) => {
    watchBody(req, res, bodyIdleMs, logger);
    // An answer that closes the connection before the body has all arrived must still be read.
    if (!req.complete && hasBody(req)) lingerBeforeClose(req, res);
    if (draining && req.url === '/readyz') {
      res.writeHead(503, { 'content-type': 'application/json', connection: 'close' }).end('{"status":"draining"}');
      return;
    }
    // While draining, each answer closes its connection: keep-alive clients reconnect elsewhere.
    if (draining) res.setHeader('connection', 'close');
    app(req, res);
  };
  const server = await new Promise<Server>((resolve, reject) => {
    const s = createServer(listener);
    s.on('clientError', answerClientError);
    const defer = listen.deferContinue;
    if (defer) {
      s.on('checkContinue', (req, res) => {
        if (defer(req)) markAwaitingContinue(req);
        else res.writeContinue();
        listener(req, res);
      });
    }
    s.once('error', reject);
    s.listen(port, listen.host ?? '127.0.0.1', () => resolve(s));
  });
  const local = listen.listenSocket ? await listenLocal(server, listen.listenSocket) : null;
  server.keepAliveTimeout = 65_000;
  // Node's default (300 s) would cut a 500 MB upload sent at 1 MB/s; see UPLOAD_REQUEST_TIMEOUT_MS.
  server.requestTimeout = UPLOAD_REQUEST_TIMEOUT_MS;
  const { port: actual, address: host } = server.address() as AddressInfo;
  logger.info({ host, port: actual, ...(local && { socket: listen.listenSocket }) }, 'listening');
  let closed: Promise<void> | null = null;
  return {
    port: actual,
    host,
    shutdownDelayMs,
    shutdownDrainMs,
    draining: () => draining,
    close: () => {
      closed ??= (async () => {
        draining = true;
        if (shutdownDelayMs > 0) {
          logger.info({ shutdownDelayMs }, 'draining: not ready, still serving');
          await new Promise((r) => setTimeout(r, shutdownDelayMs));
        }
        await Promise.all([
          new Promise<void>((resolve) => {
            server.close(() => resolve());
            server.closeIdleConnections();
            setTimeout(() => server.closeAllConnections(), shutdownDrainMs).unref();
          }),
          // Its connections are the HTTP server's (closed above); this waits for them to end.
          local && new Promise<void>((resolve) => local.close(() => resolve())),
        ]);
        await onClose();
      })();
      return closed;
    },
  };
}

/**
 * Serves `server`'s requests on a Unix socket too: each connection is handed to the HTTP server,
 * which then parses, times out, drains and closes it like one on its port. Only this user may
 * connect (mode 0600); the principal is still verified on every request, as over TCP.
 */
async function listenLocal(server: Server, socketPath: string): Promise<NetServer> {
  rmSync(socketPath, { force: true });
  const local = createNetServer((socket) => server.emit('connection', socket));
  await new Promise<void>((resolve, reject) => {
    local.once('error', reject);
    local.listen(socketPath, () => resolve());
  });
  chmodSync(socketPath, 0o600);
  return local;
}

/**
 * A request node could not parse (a header block over the limit, a broken request line, a body
 * that ends before its declared length) gets the contract's envelope, as any other 400, instead
 * of node's bare status line.
 */
function answerClientError(err: NodeJS.ErrnoException, socket: Socket): void {
  const inFlight = (socket as Socket & { _httpMessage?: { headersSent?: boolean } })._httpMessage;
  if (err.code === 'ECONNRESET' || !socket.writable || inFlight?.headersSent) {
    socket.destroy();
    return;
  }
  const message =
    err.code === 'HPE_HEADER_OVERFLOW'
      ? 'The request headers are too large.'
      : 'The request could not be read as HTTP.';
  const body = JSON.stringify({ error: { code: 'VALIDATION', message } });
  socket.end(
    `HTTP/1.1 400 Bad Request\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
  );
}

/**
 * Runs a service as a process: starts it, and on SIGTERM or SIGINT closes it gracefully and
 * exits (forcefully 5 s after its delay and drain are over).
 */
export function runMain(name: string, start: () => Promise<Running>): void {
  // `then(start)`: a configuration read inside `start` that throws is reported like any failed start.
  Promise.resolve()
    .then(start)
    .then((running) => {
      const shutdown = () => {
        const drainMs = running.shutdownDrainMs ?? DEFAULT_SHUTDOWN_DRAIN_SECONDS * 1000;
        setTimeout(() => process.exit(1), (running.shutdownDelayMs ?? 0) + drainMs + 5_000).unref();
        running.close().then(
          () => process.exit(0),
          () => process.exit(1),
        );
      };
      process.once('SIGTERM', shutdown);
      process.once('SIGINT', shutdown);
    })
    .catch((err: unknown) => {
      // One line (log collectors keep lines apart): the bad variables are named in it.
      const message = (err instanceof Error ? err.message : String(err)).replace(/\s*\n\s*/g, ' ');
      process.stderr.write(`${name} failed to start: ${message}\n`);
      process.exit(1);
    });
}
