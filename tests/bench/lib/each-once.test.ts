/** The open-loop client sends at its rate whatever the answers take, and counts failures. */
import { createServer, type Server } from 'node:http';
import { OpenLoop } from './each-once';

let server: Server;
let origin: URL;
const seen: string[] = [];

beforeAll(async () => {
  server = createServer((req, res) => {
    seen.push(`${req.method} ${req.url}`);
    // Slow answers: a closed loop of one would send about 4 a second; the open loop keeps its rate.
    setTimeout(() => {
      res.statusCode = req.url === '/fail' ? 409 : 200;
      res.end('{}');
    }, 250);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  origin = new URL(`http://127.0.0.1:${(server.address() as { port: number }).port}`);
});
afterAll(() => server.close());

it('sends at its rate, round robin, without waiting for answers', async () => {
  seen.length = 0;
  const loop = new OpenLoop(
    origin,
    [
      { path: '/a', headers: {} },
      { path: '/b', headers: {}, method: 'post', body: Buffer.from('{}') },
    ],
    40,
  );
  const t0 = performance.now();
  loop.start();
  await new Promise((r) => setTimeout(r, 1000));
  const elapsed = (performance.now() - t0) / 1000; // a loaded machine wakes the test late
  const r = await loop.stop('test');
  // As many as were due (one tick of 20 ms may be missing), never one per answer (~4 a second).
  expect(r.sent).toBeGreaterThanOrEqual(Math.floor(elapsed * 40) - 2);
  expect(r.sent).toBeLessThanOrEqual(Math.ceil(elapsed * 40) + 1);
  expect(seen.length).toBe(r.sent);
  expect(seen.slice(0, 4)).toEqual(['GET /a', 'POST /b', 'GET /a', 'POST /b']);
  expect(r.p50).toBeGreaterThanOrEqual(250);
});

it('fails when an answer is an error', async () => {
  const loop = new OpenLoop(origin, [{ path: '/fail', headers: {} }], 20);
  loop.start();
  await new Promise((r) => setTimeout(r, 300));
  await expect(loop.stop('test')).rejects.toThrow(/answered 409/);
});
