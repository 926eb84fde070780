import http from 'node:http';
import { startStack, type Stack } from '../support/stack';

/**
 * A client that reuses connections (every HTTP library does) must not lose its next request after
 * the service refused an upload before reading all of it.
 */
let stack: Stack;
beforeAll(async () => {
  stack = await startStack();
}, 60_000);
afterAll(async () => {
  await stack.stop();
});

function send(
  agent: http.Agent,
  method: string,
  path: string,
  headers: Record<string, string>,
  body?: Buffer,
): Promise<{ status: number; body: string; connection?: string }> {
  const url = new URL(stack.url);
  return new Promise((resolve, reject) => {
    const req = http.request({ host: url.hostname, port: url.port, method, path, headers, agent }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => (text += c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text, connection: res.headers.connection }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

describe('keep-alive connections through the gateway', () => {
  it('closes the connection of an upload refused before its body was read, so the next request goes through', async () => {
    const account = await stack.admin.account({ balanceMinutes: 10 });
    const token = await stack.admin.token(account.id, ['recordings:write', 'recordings:read']);
    const auth = { Authorization: `Bearer ${token.value}` };
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    const boundary = 'mmtestboundary';
    const audio = Buffer.alloc(2 * 1024 * 1024, 7);
    const multipart = Buffer.concat([
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="audio"; filename="a.wav"\r\nContent-Type: audio/wav\r\n\r\n`,
      ),
      audio,
      Buffer.from(`\r\n--${boundary}--\r\n`),
    ]);
    const refused = await send(
      agent,
      'POST',
      '/api/v1/recordings',
      {
        ...auth,
        'Idempotency-Key': 'short',
        'Content-Type': `multipart/form-data; boundary=${boundary}`,
        'Content-Length': String(multipart.length),
      },
      multipart,
    );
    expect(refused.status).toBe(400);
    expect(JSON.parse(refused.body).error.code).toBe('VALIDATION');
    for (let i = 0; i < 3; i++) {
      const next = await send(agent, 'GET', '/api/v1/whoami', auth);
      expect(next.status).toBe(200);
    }
    agent.destroy();
  });
});
