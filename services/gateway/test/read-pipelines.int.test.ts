import http, { type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import net, { type AddressInfo } from 'node:net';
import { createLogger } from '@mm/http';
import { forward, ReadPipelines } from '../src/services/proxy';

/**
 * The gateway's pipelined reads against a real upstream server: answers go back to the request
 * that asked (in order, per connection), a request that may be slow is never queued behind, and
 * anything that is not a plain GET keeps node:http's client.
 */
const logger = createLogger('read-pipelines-test', 'silent');
/** More than loopback's socket buffers hold, so a client that reads nothing pushes back. */
const BIG_BYTES = 16 * 1024 * 1024;

interface Upstream {
  url: string;
  server: Server;
  connections: number;
  /** Answers of /slow wait for this to be called. */
  release: () => void;
}

async function listen(server: Server): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

async function startUpstream(): Promise<Upstream> {
  let release: () => void = () => undefined;
  const held = new Promise<void>((resolve) => (release = resolve));
  const server = http.createServer((req, res) => {
    const answer = () => {
      const body = JSON.stringify({
        path: req.url,
        method: req.method,
        who: req.headers['x-who'] ?? null,
        length: req.headers['content-length'] ?? null,
      });
      res.writeHead(200, { 'content-type': 'application/json', 'x-request-id': 'from-upstream', 'x-upstream': 'yes' });
      res.end(body);
    };
    req.resume();
    if (req.url === '/slow') void held.then(answer);
    else if (req.url === '/hang-up') req.socket.destroy();
    else if (req.url === '/marked' || req.url === '/marked-404') {
      // An internal header (x-mm-*), never passed back to the client.
      const status = req.url === '/marked' ? 200 : 404;
      res.writeHead(status, { 'content-type': 'text/plain', 'x-mm-mark': 'internal', 'x-upstream': 'yes' });
      res.write('first ');
      res.end('second');
    } else if (req.url?.startsWith('/late/')) setTimeout(answer, 150);
    else if (req.url === '/big') {
      res.writeHead(200, { 'content-type': 'application/octet-stream', 'content-length': BIG_BYTES });
      res.end(Buffer.alloc(BIG_BYTES, 7));
    } else answer();
  });
  const up: Upstream = { url: '', server, connections: 0, release: () => release() };
  server.on('connection', () => up.connections++);
  up.url = await listen(server);
  return up;
}

/** A front server that forwards everything to `target` the way the public handler does. */
async function startFront(
  target: string,
  pipelines: ReadPipelines,
  pipelined: (req: IncomingMessage) => boolean,
): Promise<{ url: string; server: Server }> {
  const server = http.createServer((req: IncomingMessage, res: ServerResponse) => {
    const reads = { pipelines, pipelined: pipelined(req) };
    const path = req.url ?? '/';
    forward(req, res, { target, path, principal: null, reqId: 'req-test', clientIp: '127.0.0.1', logger, reads });
  });
  return { url: await listen(server), server };
}

async function get(
  url: string,
  headers: Record<string, string> = {},
): Promise<{ status: number; body: Record<string, unknown>; headers: Headers }> {
  const res = await fetch(url, { headers });
  return { status: res.status, body: (await res.json()) as Record<string, unknown>, headers: res.headers };
}

const close = (s: Server) => new Promise<void>((resolve) => s.close(() => resolve()));

/** Per test: an upstream, pipelines of 16 with at most `connections`, and a front forwarding to it. */
function harness(connections: number | null, pipelined: (req: IncomingMessage) => boolean) {
  const h = {} as { upstream: Upstream; front: { url: string; server: Server }; pipelines: ReadPipelines };
  beforeEach(async () => {
    h.upstream = await startUpstream();
    h.pipelines = new ReadPipelines({ pipelining: 16, connections });
    h.front = await startFront(h.upstream.url, h.pipelines, pipelined);
  });
  afterEach(async () => {
    h.upstream.release();
    await h.pipelines.close();
    h.front.server.closeAllConnections();
    h.upstream.server.closeAllConnections();
    await Promise.all([close(h.front.server), close(h.upstream.server)]);
  });
  return h;
}

describe('pipelined reads to an owning service, 16 deep over at most 4 connections', () => {
  // Bounded, so the count does not depend on how fast loopback connects: an unbounded pool opens
  // another connection for each request that arrives while its newest one is still connecting
  // (undici counts a connecting client as busy), which under a loaded machine (CI) was up to 64.
  const h = harness(4, (req) => req.url !== '/slow');

  it('answers every request with its own answer, over a few connections', async () => {
    const answers = await Promise.all(
      Array.from({ length: 64 }, (_, i) => get(`${h.front.url}/item/${i}`, { 'x-who': `caller-${i}` })),
    );
    answers.forEach((a, i) => {
      expect(a.status).toBe(200);
      expect(a.body).toEqual({ path: `/item/${i}`, method: 'GET', who: `caller-${i}`, length: null });
      // The service's own request id is not passed back; its other headers are.
      expect(a.headers.get('x-request-id')).toBeNull();
      expect(a.headers.get('x-upstream')).toBe('yes');
    });
    // 64 requests at once, 16 in flight per connection: node:http's client would have opened 64.
    expect(h.upstream.connections).toBeLessThanOrEqual(4);
  });
});

describe('pipelined reads to an owning service', () => {
  // Any number of connections; /slow is the one read that may be slow.
  const h = harness(null, (req) => req.url !== '/slow');

  it('never queues a read behind one that may be slow', async () => {
    const slow = get(`${h.front.url}/slow`);
    // Give the slow one its connection before the quick ones arrive.
    await new Promise((r) => setTimeout(r, 50));
    const quick = await Promise.all(Array.from({ length: 5 }, (_, i) => get(`${h.front.url}/quick/${i}`)));
    expect(quick.map((q) => q.body.path)).toEqual([0, 1, 2, 3, 4].map((i) => `/quick/${i}`));
    h.upstream.release();
    expect((await slow).body.path).toBe('/slow');
  });

  it('answers 500 with the code alone when the service hangs up', async () => {
    const res = await get(`${h.front.url}/hang-up`);
    expect(res.status).toBe(500);
    expect(res.body).toEqual({ error: { code: 'INTERNAL_ERROR' } });
    // The next read still gets through (a fresh connection).
    expect((await get(`${h.front.url}/after`)).body.path).toBe('/after');
  });

  it('keeps node:http for anything but a bodiless GET', async () => {
    const post = await fetch(`${h.front.url}/write`, {
      method: 'POST',
      body: 'abc',
      headers: { 'content-type': 'text/plain' },
    });
    expect(await post.json()).toEqual({ path: '/write', method: 'POST', who: null, length: '3' });
    const del = await fetch(`${h.front.url}/gone`, { method: 'DELETE' });
    expect(((await del.json()) as { method: string }).method).toBe('DELETE');
  });
});

describe('reads that may be slow', () => {
  // /slow and /late/* are the reads that may be slow (searches, quotes).
  const h = harness(null, (req) => req.url !== '/slow' && !req.url?.startsWith('/late/'));

  it('are pipelined among themselves, on connections of their own, at most four deep', async () => {
    const answered: string[] = [];
    const slow = get(`${h.front.url}/slow`).then((r) => answered.push(String(r.body.path)));
    await new Promise((r) => setTimeout(r, 50));
    const late = Array.from({ length: 6 }, (_, i) =>
      get(`${h.front.url}/late/${i}`).then((r) => answered.push(String(r.body.path))),
    );
    // A quick read never waits behind them.
    expect((await get(`${h.front.url}/quick`)).body.path).toBe('/quick');
    await new Promise((r) => setTimeout(r, 400));
    // Three joined the held read's connection (four deep) and wait; the rest went on others.
    expect(answered.sort()).toEqual(['/late/3', '/late/4', '/late/5']);
    h.upstream.release();
    await Promise.all([slow, ...late]);
    expect(answered).toHaveLength(7);
    // One connection for the quick read; the seven slow ones shared a few (alone, they take seven).
    expect(h.upstream.connections).toBeLessThanOrEqual(4);
  });
});

describe('one connection, every read pipelined', () => {
  const h = harness(1, () => true);

  it('a client that goes away while its read is queued costs the other reads nothing', async () => {
    const gone = new AbortController();
    const reads = Array.from({ length: 10 }, (_, i) =>
      fetch(`${h.front.url}/late/${i}`, { signal: i === 2 ? gone.signal : undefined }).then(async (r) => ({
        status: r.status,
        body: (await r.json()) as { path: string },
      })),
    );
    // The third caller leaves while all ten wait on the one connection.
    setTimeout(() => gone.abort(), 30);
    const settled = await Promise.allSettled(reads);
    expect(settled[2].status).toBe('rejected');
    // Its leaving cancels its read: undici resets that connection and sends the reads queued
    // on it again on a new one (GETs: idempotent), so each still gets its own answer.
    expect(h.upstream.connections).toBe(2);
    settled.forEach((s, i) => {
      if (i === 2) return;
      expect(s).toEqual({
        status: 'fulfilled',
        value: { status: 200, body: expect.objectContaining({ path: `/late/${i}` }) },
      });
    });
  });

  it('a client that reads nothing of a big answer holds nobody else', async () => {
    // A raw client asks for 16 MB and never reads a byte of it.
    const idle = net.connect(Number(new URL(h.front.url).port), '127.0.0.1');
    idle.pause();
    idle.write('GET /big HTTP/1.1\r\nHost: gateway\r\n\r\n');
    await new Promise((r) => setTimeout(r, 100));
    try {
      // Reads sent after it, on the same single connection to the service, are answered.
      const quick = await Promise.all([0, 1, 2].map((i) => get(`${h.front.url}/quick/${i}`)));
      expect(quick.map((q) => q.body.path)).toEqual(['/quick/0', '/quick/1', '/quick/2']);
      expect(h.upstream.connections).toBe(1);
    } finally {
      idle.destroy();
    }
  });

  it('a slow first read holds the reads queued behind it (why slow reads have connections of their own)', async () => {
    const order: string[] = [];
    const slow = get(`${h.front.url}/slow`).then((r) => order.push(String(r.body.path)));
    await new Promise((r) => setTimeout(r, 50));
    const quick = get(`${h.front.url}/quick`).then((r) => order.push(String(r.body.path)));
    await new Promise((r) => setTimeout(r, 200));
    expect(order).toEqual([]);
    h.upstream.release();
    await Promise.all([slow, quick]);
    expect(order).toEqual(['/slow', '/quick']);
  });
});

describe("a read's internal headers", () => {
  const h = {} as { upstream: Upstream; front: { url: string; server: Server }; pipelines: ReadPipelines };
  beforeEach(async () => {
    h.upstream = await startUpstream();
    h.pipelines = new ReadPipelines({ pipelining: 16, connections: null });
    h.front = await startFront(h.upstream.url, h.pipelines, () => true);
  });
  afterEach(async () => {
    await h.pipelines.close();
    h.front.server.closeAllConnections();
    h.upstream.server.closeAllConnections();
    await Promise.all([close(h.front.server), close(h.upstream.server)]);
  });

  it('never reach the client; the other headers and the whole body do', async () => {
    for (const [path, status] of [
      ['/marked', 200],
      ['/marked-404', 404],
    ] as const) {
      const res = await fetch(`${h.front.url}${path}`);
      expect(res.status).toBe(status);
      expect(await res.text()).toBe('first second');
      expect(res.headers.get('x-mm-mark')).toBeNull();
      expect(res.headers.get('x-upstream')).toBe('yes');
    }
  });
});
