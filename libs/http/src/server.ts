import { createServer, type RequestListener, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Logger } from 'pino';

/**
 * How long one request may take to arrive in full: the largest upload (MAX_UPLOAD_MB, 500 by
 * default) sent at 0.5 MB/s, plus a minute. Headers still have Node's 60 s (headersTimeout).
 */
export const UPLOAD_REQUEST_TIMEOUT_MS = (500 / 0.5 + 60) * 1000;

/** A listening service: its port, and a close that drains requests then runs the service's own cleanup. */
export interface Running {
  port: number;
  close(): Promise<void>;
}

/**
 * Listens (port 0 picks a free one), and returns a close that stops taking requests, lets open
 * ones finish, then runs `onClose` (consumers, pools).
 */
export async function serve(app: RequestListener, port: number, logger: Logger, onClose: () => Promise<void>): Promise<Running> {
  const server = await new Promise<Server>((resolve, reject) => {
    const s = createServer(app);
    s.once('error', reject);
    s.listen(port, '0.0.0.0', () => resolve(s));
  });
  server.keepAliveTimeout = 65_000;
  // Node's default (300 s) would cut a 500 MB upload sent at 1 MB/s; see UPLOAD_REQUEST_TIMEOUT_MS.
  server.requestTimeout = UPLOAD_REQUEST_TIMEOUT_MS;
  const actual = (server.address() as AddressInfo).port;
  logger.info({ port: actual }, 'listening');
  let closed: Promise<void> | null = null;
  return {
    port: actual,
    close: () => {
      closed ??= (async () => {
        await new Promise<void>((resolve) => {
          server.close(() => resolve());
          server.closeIdleConnections();
          setTimeout(() => server.closeAllConnections(), 5000).unref();
        });
        await onClose();
      })();
      return closed;
    },
  };
}

/**
 * Runs a service as a process: starts it, and on SIGTERM or SIGINT closes it gracefully and
 * exits (forcefully after 10 s).
 */
export function runMain(name: string, start: () => Promise<Running>): void {
  start()
    .then((running) => {
      const shutdown = () => {
        setTimeout(() => process.exit(1), 10_000).unref();
        running.close().then(
          () => process.exit(0),
          () => process.exit(1),
        );
      };
      process.once('SIGTERM', shutdown);
      process.once('SIGINT', shutdown);
    })
    .catch((err: unknown) => {
      process.stderr.write(`${name} failed to start: ${err instanceof Error ? err.message : String(err)}\n`);
      process.exit(1);
    });
}
