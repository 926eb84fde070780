import { mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import http, { type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { createLogger, type Running, serve } from '@mm/http';
import { forward, ReadPipelines } from '../src/services/proxy';

/**
 * Every service on one machine (LOCAL_SOCKET_DIR): a service serves its requests on a Unix socket
 * besides its port, and the gateway's forward reaches it there, both ways out (pipelined reads,
 * streamed requests with a body). The target URL given is a port nobody listens on, so an answer
 * can only have come through the socket.
 */
const logger = createLogger('local-socket-test', 'silent');
const NOBODY = 'http://127.0.0.1:9';

let dir: string;
let socketPath: string;
let service: Running;
let front: Server;
let frontUrl: string;
let pipelines: ReadPipelines;

/** Echoes what it was asked and how it was reached (a Unix socket has no remote port). */
function echo(req: IncomingMessage, res: ServerResponse): void {
  let length = 0;
  req.on('data', (c: Buffer) => (length += c.length));
  req.on('end', () => {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(
      JSON.stringify({
        path: req.url,
        method: req.method,
        length,
        overUnixSocket: req.socket.remotePort === undefined,
      }),
    );
  });
}

beforeAll(async () => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'mm-sock-'));
  socketPath = path.join(dir, 'recordings.sock');
  // A file left by an earlier run that died: replaced, not an error.
  writeFileSync(socketPath, 'stale');
  service = await serve(echo, { port: 0, listenSocket: socketPath }, logger, async () => undefined);
  pipelines = new ReadPipelines({ pipelining: 16, connections: null });
  front = http.createServer((req, res) =>
    forward(req, res, {
      target: NOBODY,
      socketPath,
      path: req.url ?? '/',
      principal: null,
      reqId: 'req-test',
      clientIp: '127.0.0.1',
      logger,
      reads: { pipelines, pipelined: true },
    }),
  );
  await new Promise<void>((resolve) => front.listen(0, '127.0.0.1', resolve));
  frontUrl = `http://127.0.0.1:${(front.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await pipelines.close();
  front.closeAllConnections();
  await new Promise<void>((resolve) => front.close(() => resolve()));
  await service.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('a service on a Unix socket, reached by the gateway', () => {
  it('listens on a socket only its own user may connect to', () => {
    const st = statSync(socketPath);
    expect(st.isSocket()).toBe(true);
    expect(st.mode & 0o777).toBe(0o600);
  });

  it('answers pipelined reads through the socket, each its own answer', async () => {
    const answers = await Promise.all(
      Array.from({ length: 40 }, async (_, i) => (await fetch(`${frontUrl}/item/${i}`)).json()),
    );
    answers.forEach((a, i) =>
      expect(a).toEqual({ path: `/item/${i}`, method: 'GET', length: 0, overUnixSocket: true }),
    );
  });

  it('streams a request with a body through the socket', async () => {
    const body = Buffer.alloc(256 * 1024, 3);
    const res = await fetch(`${frontUrl}/upload`, {
      method: 'POST',
      body,
      headers: { 'content-type': 'application/octet-stream' },
    });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ path: '/upload', method: 'POST', length: body.length, overUnixSocket: true });
  });

  it('is still served on its port', async () => {
    const res = await fetch(`http://127.0.0.1:${service.port}/direct`);
    expect(await res.json()).toEqual({ path: '/direct', method: 'GET', length: 0, overUnixSocket: false });
  });
});

describe('a service that went away', () => {
  it('answers 500 through the gateway once its socket is closed, as a closed port does', async () => {
    const gone = path.join(dir, 'gone.sock');
    const s = await serve(echo, { port: 0, listenSocket: gone }, logger, async () => undefined);
    await s.close();
    const p = new ReadPipelines({ pipelining: 16, connections: null });
    const f = http.createServer((req, res) =>
      forward(req, res, {
        target: NOBODY,
        socketPath: gone,
        path: '/x',
        principal: null,
        reqId: 'req-gone',
        clientIp: '127.0.0.1',
        logger,
        reads: { pipelines: p, pipelined: true },
      }),
    );
    await new Promise<void>((resolve) => f.listen(0, '127.0.0.1', resolve));
    try {
      const res = await fetch(`http://127.0.0.1:${(f.address() as AddressInfo).port}/x`);
      expect(res.status).toBe(500);
      expect(((await res.json()) as { error: { code: string } }).error.code).toBe('INTERNAL_ERROR');
    } finally {
      await p.close();
      f.closeAllConnections();
      await new Promise<void>((resolve) => f.close(() => resolve()));
    }
  });
});
