/** The bench trusts these parsers to refuse numbers from failed runs; checked on real wrk 4.1 output. */
import { parseWrkOutput, wrkProblems } from './wrk';

const CLEAN = `Running 10s test @ http://127.0.0.1:18080/api/v1/whoami
  2 threads and 50 connections
  Thread Stats   Avg      Stdev     Max   +/- Stdev
    Latency   301.02ms  130.64ms   1.13s    75.47%
    Req/Sec    86.02     49.87   252.00     71.43%
  Latency Distribution
     50%  295.60ms
     75%  363.43ms
     90%  434.75ms
     99%  817.81ms
  1677 requests in 10.10s, 0.95MB read
Requests/sec:    166.02
Transfer/sec:     96.63KB
WRK_JSON {"requests":1677,"durationUs":10100936,"bytes":999492,"errors":{"connect":0,"read":0,"write":0,"status":0,"timeout":0},"latencyUs":{"min":73666,"mean":301017.6,"max":1130617,"p50":295595,"p75":363434,"p90":434748,"p99":817810,"p999":1130125}}
`;

describe('parseWrkOutput', () => {
  it('reads throughput, the latency distribution in every unit, and the exact summary line', () => {
    const r = parseWrkOutput(CLEAN);
    expect(r.requestsPerSec).toBe(166.02);
    expect(r.requests).toBe(1677);
    expect(r.durationSeconds).toBeCloseTo(10.1);
    expect(r.latencyMs).toEqual({ avg: 301.02, max: 1130, p50: 295.6, p75: 363.43, p90: 434.75, p99: 817.81 });
    expect(r.exact?.latencyUs.p99).toBe(817810);
    expect(wrkProblems(r)).toEqual([]);
  });

  it('converts microseconds and seconds', () => {
    const r = parseWrkOutput(CLEAN.replace('295.60ms', '870.00us').replace('817.81ms', '1.20s'));
    expect(r.latencyMs.p50).toBeCloseTo(0.87);
    expect(r.latencyMs.p99).toBe(1200);
  });

  it('reports error responses and socket errors as problems', () => {
    const failing = CLEAN.replace(
      'Requests/sec:',
      '  Socket errors: connect 0, read 2, write 0, timeout 7\n  Non-2xx or 3xx responses: 1677\nRequests/sec:',
    ).replace('"status":0,"timeout":0', '"status":1677,"timeout":7');
    const r = parseWrkOutput(failing);
    expect(r.non2xx).toBe(1677);
    expect(r.socketErrors).toEqual({ connect: 0, read: 2, write: 0, timeout: 7 });
    expect(wrkProblems(r)).toEqual([
      '1677 responses were errors (status >= 400)',
      'socket errors: connect 0, read 2, write 0, timeout 7',
    ]);
  });

  it('counts status errors from the summary line even without the text line', () => {
    const r = parseWrkOutput(CLEAN.replace('"status":0', '"status":3'));
    expect(wrkProblems(r)).toEqual(['3 responses were errors (status >= 400)']);
  });

  it('refuses output without the latency distribution', () => {
    expect(() => parseWrkOutput(CLEAN.replace(/ {5}99%.*\n/, ''))).toThrow(/99% latency/);
  });
});

describe('runWrk with rotated requests', () => {
  it('sends each rotated path with its own headers, every one of them', async () => {
    const { createServer } = await import('node:http');
    const { runWrk } = await import('./wrk');
    const seen = new Map<string, Set<string>>();
    const server = createServer((req, res) => {
      const key = String(req.headers.authorization);
      if (!seen.has(key)) seen.set(key, new Set());
      seen.get(key)!.add(req.url ?? '');
      res.end('{}');
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
    const port = (server.address() as { port: number }).port;
    try {
      const rotateRequests = ['a', 'b', 'c'].map((x) => ({
        path: `/api/v1/${x}/status?after=latest`,
        headers: { Authorization: `Bearer tok_${x}` },
      }));
      const r = await runWrk({
        url: `http://127.0.0.1:${port}`,
        threads: 1,
        connections: 2,
        durationSeconds: 1,
        rotateRequests,
      });
      expect(wrkProblems(r)).toEqual([]);
      expect([...seen.keys()].sort()).toEqual(['Bearer tok_a', 'Bearer tok_b', 'Bearer tok_c']);
      for (const x of ['a', 'b', 'c'])
        expect([...seen.get(`Bearer tok_${x}`)!]).toEqual([`/api/v1/${x}/status?after=latest`]);
    } finally {
      server.close();
    }
  });

  it('sends a method and any bytes as the body, unchanged', async () => {
    const { createServer } = await import('node:http');
    const { runWrk } = await import('./wrk');
    // Every byte value, quotes, backslashes and digits right after an escaped byte.
    const body = Buffer.concat([
      Buffer.from(Array.from({ length: 256 }, (_, i) => i)),
      Buffer.from('\x01' + '2"\\\n9'),
    ]);
    const bodies: Buffer[] = [];
    const methods = new Set<string>();
    const server = createServer((req, res) => {
      const parts: Buffer[] = [];
      req.on('data', (d: Buffer) => parts.push(d));
      req.on('end', () => {
        methods.add(`${req.method} ${req.url}`);
        bodies.push(Buffer.concat(parts));
        res.end('{}');
      });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
    const port = (server.address() as { port: number }).port;
    try {
      const rotateRequests = [
        { path: '/a', headers: { Authorization: 'Bearer x' }, method: 'post', body },
        { path: '/b', headers: { Authorization: 'Bearer y' }, method: 'put', body },
      ];
      const r = await runWrk({
        url: `http://127.0.0.1:${port}`,
        threads: 1,
        connections: 2,
        durationSeconds: 1,
        rotateRequests,
      });
      expect(wrkProblems(r)).toEqual([]);
      expect([...methods].sort()).toEqual(['POST /a', 'PUT /b']);
      expect(bodies.length).toBeGreaterThan(0);
      for (const b of bodies) expect(b.equals(body)).toBe(true);
    } finally {
      server.close();
    }
  });
});

describe('runWrk with a delay (real wrk against a local server)', () => {
  it('holds each connection to one request per delay, with and without rotated requests', async () => {
    const { createServer } = await import('node:http');
    const { runWrk } = await import('./wrk');
    const seen: string[] = [];
    const server = createServer((req, res) => {
      seen.push(req.url ?? '');
      res.end('ok');
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const port = (server.address() as { port: number }).port;
    try {
      const run = { url: `http://127.0.0.1:${port}/`, threads: 1, connections: 2, durationSeconds: 1 };
      const unpaced = await runWrk(run);
      // 2 connections, one request per 100 ms each, for 1 s: about 20.
      const paced = await runWrk({ ...run, delayMs: 100 });
      expect(unpaced.requests).toBeGreaterThan(200);
      expect(paced.requests).toBeGreaterThanOrEqual(10);
      expect(paced.requests).toBeLessThanOrEqual(24);
      seen.length = 0;
      const rotated = await runWrk({
        ...run,
        delayMs: 100,
        rotateRequests: [
          { path: '/a', headers: {} },
          { path: '/b', headers: {} },
        ],
      });
      expect(rotated.requests).toBeLessThanOrEqual(24);
      expect(new Set(seen)).toEqual(new Set(['/a', '/b']));
      await expect(runWrk({ ...run, delayMs: -1 })).rejects.toThrow(/0 ms or more/);
    } finally {
      server.close();
    }
  });
});
