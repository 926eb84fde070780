import { request } from 'node:http';
import { createLogger, serve } from '../src';

/**
 * A stopping service lets requests in flight finish for `shutdownDrainSeconds`, then cuts them: an
 * upload of hundreds of MB needs minutes (Kubernetes: SHUTDOWN_DRAIN_SECONDS within the pod's
 * grace period), where the old fixed 5 s cut it on every rollout.
 */
const logger = createLogger('shutdown-drain-test', 'silent');
const ANSWER_AFTER_MS = 1200;

type Outcome = { status: number; body: string } | { error: string };

async function stopDuringRequest(shutdownDrainSeconds: number): Promise<{ outcome: Outcome; closedAfterMs: number }> {
  let arrived!: () => void;
  const inFlight = new Promise<void>((r) => (arrived = r));
  const running = await serve(
    (_req, res) => {
      arrived();
      setTimeout(() => res.end('done'), ANSWER_AFTER_MS);
    },
    { port: 0, shutdownDrainSeconds },
    logger,
    async () => undefined,
  );
  const outcome = new Promise<Outcome>((resolve) => {
    const req = request({ host: '127.0.0.1', port: running.port, path: '/slow', agent: false }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => (body += c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
      res.on('error', (e) => resolve({ error: e.message }));
    });
    req.on('error', (e) => resolve({ error: e.message }));
    req.end();
  });
  await inFlight;
  const started = Date.now();
  await running.close();
  return { outcome: await outcome, closedAfterMs: Date.now() - started };
}

describe('a stopping service and the requests in flight', () => {
  it('answers a request in flight that ends within the drain time, and stops once it has', async () => {
    const { outcome, closedAfterMs } = await stopDuringRequest(3);
    expect(outcome).toEqual({ status: 200, body: 'done' });
    expect(closedAfterMs).toBeGreaterThanOrEqual(ANSWER_AFTER_MS - 100);
    expect(closedAfterMs).toBeLessThan(3000);
  });

  it('cuts a request still running when the drain time is over', async () => {
    const { outcome, closedAfterMs } = await stopDuringRequest(0.3);
    expect(outcome).toHaveProperty('error');
    expect(closedAfterMs).toBeLessThan(ANSWER_AFTER_MS);
  });
});
