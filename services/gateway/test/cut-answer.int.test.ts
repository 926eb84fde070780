import http, { type Server } from 'node:http';
import net, { type AddressInfo } from 'node:net';
import { createLogger } from '@mm/http';
import { startForwardingFront } from './support/forwarding-front';

/**
 * Once an owning service's answer has begun, that answer is what the client gets: a failure of
 * the service's connection after it (the rest of an upload the service stopped reading) is not
 * turned into a 500, and an answer cut short (a reset or a plain close before its declared
 * length) closes the client's connection instead of leaving the client waiting for the rest.
 */
const logger = createLogger('cut-answer-test', 'silent');
const ANSWER = '{"error":{"code":"VALIDATION"}}';

let service: net.Server;
let front: Server;
let frontPort: number;

beforeAll(async () => {
  // A raw service: what it does after the request's headers depends on the path.
  service = net.createServer((socket) => {
    let head = '';
    const onData = (chunk: Buffer) => {
      head += chunk.toString('latin1');
      if (!head.includes('\r\n\r\n')) return;
      socket.off('data', onData);
      const path = head.split(' ')[1];
      if (path === '/refuse-then-reset') {
        // Answers whole, stops reading the body, and resets the connection a little later.
        socket.pause();
        socket.write(
          `HTTP/1.1 400 Bad Request\r\ncontent-type: application/json\r\ncontent-length: ${ANSWER.length}\r\n\r\n${ANSWER}`,
        );
        setTimeout(() => socket.resetAndDestroy(), 300);
        return;
      }
      socket.write('HTTP/1.1 200 OK\r\ncontent-type: text/plain\r\ncontent-length: 100\r\n\r\n0123456789');
      setTimeout(() => (path === '/cut-by-close' ? socket.end() : socket.resetAndDestroy()), 100);
    };
    socket.on('data', onData);
    socket.on('error', () => undefined);
  });
  await new Promise<void>((resolve) => service.listen(0, '127.0.0.1', resolve));
  const target = `http://127.0.0.1:${(service.address() as AddressInfo).port}`;
  ({ server: front, port: frontPort } = await startForwardingFront(target, logger));
});

afterAll(async () => {
  front.closeAllConnections();
  await new Promise<void>((resolve) => front.close(() => resolve()));
  await new Promise<void>((resolve) => service.close(() => resolve()));
});

type Outcome = { status: number; body: string; ending: 'whole' | 'cut' | 'still waiting after 3 s' };

function post(path: string, body: Buffer): Promise<Outcome> {
  return new Promise((resolve, reject) => {
    let answered = false;
    const req = http.request(
      {
        host: '127.0.0.1',
        port: frontPort,
        method: 'POST',
        path,
        headers: { 'content-type': 'application/octet-stream', 'content-length': body.length },
        agent: false,
      },
      (res) => {
        answered = true;
        let text = '';
        const done = (ending: Outcome['ending']) => {
          clearTimeout(waiting);
          resolve({ status: res.statusCode ?? 0, body: text, ending });
          req.destroy();
        };
        const waiting = setTimeout(() => done('still waiting after 3 s'), 3000);
        res.setEncoding('utf8');
        res.on('data', (c: string) => (text += c));
        res.on('end', () => done('whole'));
        res.on('aborted', () => done('cut'));
        res.on('error', () => done('cut'));
      },
    );
    // The gateway may stop reading the body once it has the answer: the answer still counts.
    req.on('error', (err) => (answered ? undefined : reject(err)));
    req.end(body);
  });
}

describe('an answer of an owning service', () => {
  it.each([['/cut-by-close'], ['/cut-by-reset']])(
    'cut short (%s) closes the client connection rather than leaving it waiting',
    async (path) => {
      const answer = await post(path, Buffer.from('hello'));
      expect(answer).toEqual({ status: 200, body: '0123456789', ending: 'cut' });
    },
  );

  it('given whole before the service reset its connection reaches the client whole', async () => {
    const answer = await post('/refuse-then-reset', Buffer.alloc(16 * 1024 * 1024, 7));
    expect(answer).toEqual({ status: 400, body: ANSWER, ending: 'whole' });
  });
});
