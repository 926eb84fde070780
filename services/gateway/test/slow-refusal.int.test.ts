import http, { type Server } from 'node:http';
import { createLogger, serve, type Running } from '@mm/http';
import { startForwardingFront } from './support/forwarding-front';

/**
 * An upload the owning service refuses after the gateway gave up waiting for its 100 Continue
 * (a loaded machine: the service took longer than the gateway's wait to decide): the gateway has
 * begun sending the body when the refusal comes. The client must get the service's refusal, not a
 * 500 for a connection the service closed while the body was still arriving.
 */
const logger = createLogger('slow-refusal-test', 'silent');
const BODY_BYTES = 2 * 1024 * 1024;
const LARGE_BODY_BYTES = 16 * 1024 * 1024;
/** Longer than the gateway's wait for a 100 Continue (CONTINUE_WAIT_MS, 1 s). */
const DECIDE_MS = 1300;

let service: Running;
let front: Server;
let frontUrl: URL;

beforeAll(async () => {
  service = await serve(
    (req, res) => {
      // Decides slowly, then refuses without asking for the body (never calls allowBody).
      setTimeout(() => {
        res.writeHead(400, { 'content-type': 'application/json' });
        res.end('{"error":{"code":"VALIDATION"}}');
      }, DECIDE_MS);
    },
    { port: 0, deferContinue: () => true },
    logger,
    async () => undefined,
  );
  let port: number;
  ({ server: front, port } = await startForwardingFront(`http://127.0.0.1:${service.port}`, logger));
  frontUrl = new URL(`http://127.0.0.1:${port}`);
});

afterAll(async () => {
  await new Promise<void>((resolve) => front.close(() => resolve()));
  front.closeAllConnections();
  await service.close();
});

function upload(bytes = BODY_BYTES): Promise<{ status: number; body: string }> {
  const boundary = 'slowrefusal';
  const body = Buffer.concat([
    Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="audio"; filename="a.wav"\r\n\r\n`),
    Buffer.alloc(bytes, 7),
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        host: frontUrl.hostname,
        port: frontUrl.port,
        method: 'POST',
        path: '/api/v1/recordings',
        headers: { 'content-type': `multipart/form-data; boundary=${boundary}`, 'content-length': body.length },
        agent: false,
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (c: string) => (text += c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text }));
      },
    );
    // The gateway may close the connection before reading the whole body: the answer still counts.
    req.on('error', (err) => (req.writableFinished ? undefined : reject(err)));
    req.end(body);
  });
}

describe('a refusal that comes after the gateway began sending the body', () => {
  it("passes the service's answer on, every time", async () => {
    for (let i = 0; i < 4; i++) {
      const answer = await upload();
      expect({ status: answer.status, body: answer.body }).toEqual({
        status: 400,
        body: '{"error":{"code":"VALIDATION"}}',
      });
    }
  });

  it("passes the service's answer on to several large uploads refused at once", async () => {
    // More body than loopback's socket buffers hold, still arriving when the service answers and
    // closes: the case where a service that closes at once resets the connection under its answer.
    for (let round = 0; round < 2; round++) {
      const answers = await Promise.all(Array.from({ length: 8 }, () => upload(LARGE_BODY_BYTES)));
      expect(answers).toEqual(Array(8).fill({ status: 400, body: '{"error":{"code":"VALIDATION"}}' }));
    }
  });
});
