import http, { type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Logger } from 'pino';
import { forward } from '../../src/services/proxy';

/** A bare server that forwards every request to `target` the way the gateway does (no checks). */
export async function startForwardingFront(target: string, logger: Logger): Promise<{ server: Server; port: number }> {
  const server = http.createServer((req, res) =>
    forward(req, res, {
      target,
      path: req.url ?? '/',
      principal: null,
      reqId: 'req-test',
      clientIp: '127.0.0.1',
      logger,
    }),
  );
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, port: (server.address() as AddressInfo).port };
}
