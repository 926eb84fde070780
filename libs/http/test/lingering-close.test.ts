import type { IncomingMessage, ServerResponse } from 'node:http';
import net from 'node:net';
import {
  closeAfterEarlyAnswer,
  createLogger,
  EARLY_ANSWER_LINGER_BYTES,
  EARLY_ANSWER_LINGER_MS,
  type Running,
  serve,
} from '../src';

/**
 * A service that answers a request whose body is still arriving, then closes the connection: the
 * client must be able to read the answer even if it keeps writing its body for a while (the
 * gateway does, until its event loop reads the answer). Closing a socket with unread bytes sends a
 * reset, and a client that writes after a reset loses the answer waiting in its socket; so the
 * close lingers, bounded in time and in bytes read.
 */
const logger = createLogger('lingering-close-test', 'silent');
const ANSWER = '{"error":{"code":"VALIDATION"}}';
/** Declared, never sent whole: the service must not read it to the end. */
const DECLARED_BYTES = 1024 * 1024 * 1024;
const CHUNK = Buffer.alloc(64 * 1024, 7);
/** How long the client keeps writing after it has the answer (longer than the linger). */
const KEEPS_WRITING_MS = EARLY_ANSWER_LINGER_MS + 1500;

interface ServiceSide {
  /** Bytes the service read from the connection after it answered. */
  readAfterAnswer: number;
  /** From the answer to the connection's close. */
  closedAfterMs: number;
}

let service: Running;
/** What the service saw of each connection it closed, by path. */
const closed = new Map<string, ServiceSide>();

/** Refuses after a moment without asking for the body, the way a refusal after checks does. */
function refuse(req: IncomingMessage, res: ServerResponse): void {
  setTimeout(() => {
    if (req.url === '/close-after-early-answer') closeAfterEarlyAnswer(req, res);
    res.writeHead(400, { 'content-type': 'application/json', 'content-length': ANSWER.length });
    res.end(ANSWER);
    const socket = req.socket;
    const atAnswer = socket.bytesRead;
    const answeredAt = Date.now();
    socket.once('close', () =>
      closed.set(req.url ?? '', {
        readAfterAnswer: socket.bytesRead - atAnswer,
        closedAfterMs: Date.now() - answeredAt,
      }),
    );
  }, 200);
}

beforeAll(async () => {
  service = await serve(refuse, { port: 0, deferContinue: () => true }, logger, async () => undefined);
});

afterAll(async () => {
  await service.close();
});

interface ClientSide {
  answer: string;
  /** From reading the answer to the connection's reset (null: it closed without one). */
  resetAfterMs: number | null;
}

/**
 * Sends the headers, then the body as fast as the connection takes it without waiting for a 100,
 * and goes on writing after the answer came (half-open: the service's end does not stop it).
 */
function sendWholeBody(path: string, headers: string): Promise<ClientSide> {
  return new Promise((resolve) => {
    const socket = net.connect({ port: service.port, host: '127.0.0.1', allowHalfOpen: true });
    let text = '';
    let answeredAt = 0;
    let resetAt: number | null = null;
    const pump = (): void => {
      while (!socket.destroyed && (!answeredAt || Date.now() - answeredAt < KEEPS_WRITING_MS)) {
        if (!socket.write(CHUNK)) return void socket.once('drain', pump);
      }
      if (!socket.destroyed) socket.destroy();
    };
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => {
      text += chunk;
      if (!answeredAt && text.endsWith(ANSWER)) answeredAt = Date.now();
    });
    socket.on('error', () => (resetAt ??= Date.now()));
    socket.on('close', () =>
      resolve({ answer: text, resetAfterMs: resetAt === null ? null : resetAt - (answeredAt || resetAt) }),
    );
    socket.write(
      `POST ${path} HTTP/1.1\r\nHost: x\r\nContent-Type: application/octet-stream\r\n` +
        `Content-Length: ${DECLARED_BYTES}\r\n${headers}\r\n`,
    );
    pump();
  });
}

describe('a connection closed after answering a request whose body is still arriving', () => {
  it.each([
    ['asked for a 100 Continue and sent its body without waiting', '/deferred', 'Expect: 100-continue\r\n'],
    ['was answered through closeAfterEarlyAnswer', '/close-after-early-answer', ''],
  ])(
    'lingers for a client that %s: it reads the answer, no reset comes before the linger is over, and the body is not read whole',
    async (_case, path, headers) => {
      const client = await sendWholeBody(path, headers);
      expect(client.answer).toMatch(/^HTTP\/1\.1 400 Bad Request\r\n/);
      expect(client.answer).toMatch(/\r\nconnection: close\r\n/i);
      expect(client.answer.endsWith(`\r\n\r\n${ANSWER}`)).toBe(true);
      // Closing at once resets within a few milliseconds of the answer: this client, still
      // writing, would lose the answer if it had not read it yet.
      if (client.resetAfterMs !== null) expect(client.resetAfterMs).toBeGreaterThanOrEqual(EARLY_ANSWER_LINGER_MS / 2);
      await new Promise((r) => setTimeout(r, 50));
      const seen = closed.get(path);
      // Bounded: the service closed after the linger, before this client would have given up.
      expect(seen?.closedAfterMs).toBeLessThan(EARLY_ANSWER_LINGER_MS + 1000);
      // What it read after answering: the lingering read, plus what node had buffered.
      expect(seen?.readAfterAnswer).toBeLessThan(EARLY_ANSWER_LINGER_BYTES + 2 * 1024 * 1024);
    },
  );
});
