import net from 'node:net';

/** A response read off a raw socket: status, lower-cased headers and the body as text. */
export interface RawResponse {
  status: number;
  headers: Record<string, string>;
  text: string;
  /** The body parsed as JSON, or undefined when it is not JSON. */
  json: unknown;
}

/**
 * Sends bytes exactly as given (no client-side normalization of the path, headers or body) and
 * reads one response; the connection is closed after it. `end` false leaves the request open
 * `body` (a body that ends before its declared length).
 */
export function rawRequest(
  baseUrl: string,
  head: string,
  body: Buffer | string = '',
  halfClose = false,
): Promise<RawResponse> {
  const url = new URL(baseUrl);
  return new Promise((resolve, reject) => {
    const socket = net.connect(Number(url.port), url.hostname);
    const chunks: Buffer[] = [];
    const timer = setTimeout(() => {
      socket.destroy();
      reject(new Error(`no answer to ${head.split('\r\n')[0]}`));
    }, 20_000);
    socket.on('data', (c) => chunks.push(c));
    socket.on('error', (err) => {
      if (chunks.length === 0) {
        clearTimeout(timer);
        reject(err);
      }
    });
    socket.on('close', () => {
      clearTimeout(timer);
      try {
        resolve(parse(Buffer.concat(chunks)));
      } catch (err) {
        reject(err);
      }
    });
    socket.write(head.replace(/\r?\n/g, '\r\n') + '\r\nConnection: close\r\n\r\n');
    if (halfClose) socket.end(body);
    else socket.write(body);
  });
}

function parse(buf: Buffer): RawResponse {
  const text = buf.toString('latin1');
  const split = text.indexOf('\r\n\r\n');
  if (split === -1) throw new Error(`no response head in ${JSON.stringify(text.slice(0, 200))}`);
  const [statusLine, ...lines] = text.slice(0, split).split('\r\n');
  const headers: Record<string, string> = {};
  for (const l of lines) {
    const i = l.indexOf(':');
    headers[l.slice(0, i).trim().toLowerCase()] = l.slice(i + 1).trim();
  }
  let bodyBuf = buf.subarray(Buffer.byteLength(text.slice(0, split + 4), 'latin1'));
  if (/chunked/i.test(headers['transfer-encoding'] ?? '')) bodyBuf = dechunk(bodyBuf);
  else if (headers['content-length']) bodyBuf = bodyBuf.subarray(0, Number(headers['content-length']));
  const bodyText = bodyBuf.toString('utf8');
  let json: unknown;
  try {
    json = JSON.parse(bodyText);
  } catch {
    json = undefined;
  }
  return { status: Number(statusLine.split(' ')[1]), headers, text: bodyText, json };
}

function dechunk(buf: Buffer): Buffer {
  const out: Buffer[] = [];
  let at = 0;
  for (;;) {
    const eol = buf.indexOf('\r\n', at);
    if (eol === -1) break;
    const size = parseInt(buf.subarray(at, eol).toString('latin1'), 16);
    if (!size) break;
    out.push(buf.subarray(eol + 2, eol + 2 + size));
    at = eol + 2 + size + 2;
  }
  return Buffer.concat(out);
}

/** An open raw connection: what it received so far (latin1) and when it closed (epoch ms). */
export interface RawConnection {
  socket: net.Socket;
  received: () => string;
  closed: Promise<number>;
}

/** Connects a raw socket to `baseUrl`'s host and port, for tests that write a request by hand over time. */
export function openRaw(baseUrl: string): Promise<RawConnection> {
  const url = new URL(baseUrl);
  return new Promise((resolve, reject) => {
    const socket = net.connect(Number(url.port), url.hostname);
    let text = '';
    socket.on('data', (c: Buffer) => (text += c.toString('latin1')));
    socket.on('error', () => undefined);
    const closed = new Promise<number>((r) => socket.once('close', () => r(Date.now())));
    socket.once('connect', () => resolve({ socket, received: () => text, closed }));
    socket.once('error', reject);
  });
}
