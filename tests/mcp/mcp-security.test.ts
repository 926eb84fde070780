import { mkdtempSync, readFileSync, symlinkSync, writeFileSync, copyFileSync, readdirSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import request from 'supertest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { ListRootsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { loadConfig } from '../../services/mcp/src/config';
import { createHttpApp, listenHttp } from '../../services/mcp/src/http';
import { fetchAudio } from '../../services/mcp/src/services/audio-url';
import { startStack, type Stack, type TestToken } from '../support/stack';
import { callTool as call, faultOf, stdioMcpClient } from '../support/mcp-client';
import { toneWav } from '../support/media';
import { REPO } from '../support/run-mm';

/**
 * The MCP server's trust boundaries (issue 25, items 9 and 10): over stdio a model names a path,
 * so only files inside the folders the person allowed, that are audio, are sent; over HTTP the
 * server stays on loopback, answers only its own Host and allowed Origins, says how to get a token.
 */
let stack: Stack;
let writer: TestToken;
const clients: Client[] = [];

beforeAll(async () => {
  stack = await startStack();
  const account = await stack.admin.account({ balanceMinutes: 100 });
  writer = await stack.admin.token(account.id, ['recordings:read', 'recordings:write']);
}, 60_000);
afterAll(async () => {
  for (const c of clients) await c.close();
  await stack.stop();
});

const usedMinutes = async () =>
  (await stack.api.get('/api/v1/whoami').set({ Authorization: `Bearer ${writer.value}` })).body.token.usedMinutes24h;

async function stdio(env: Record<string, string>): Promise<Client> {
  const { client } = await stdioMcpClient({ MM_URL: stack.url, MM_TOKEN: writer.value, ...env });
  clients.push(client);
  return client;
}

describe('MCP over stdio uploads only audio from the folders the person allowed', () => {
  it('refuses /etc/passwd, a link out of the folder and a non-audio file; sends audio inside, naming it and its size', async () => {
    const allowed = mkdtempSync(path.join(tmpdir(), 'mcp-allowed-'));
    const wav = path.join(allowed, 'standup.wav');
    copyFileSync(toneWav(3), wav);
    const link = path.join(allowed, 'passwd.wav');
    symlinkSync('/etc/passwd', link);
    const text = path.join(allowed, 'notes.wav');
    writeFileSync(text, 'not audio at all\n');
    const client = await stdio({ MM_UPLOAD_DIRS: allowed });
    const before = await usedMinutes();

    for (const p of ['/etc/passwd', link, path.join(allowed, '..', 'elsewhere.wav')])
      expect(faultOf(await call(client, 'submitRecording', { path: p }))).toMatchObject({
        code: 'VALIDATION',
        message: expect.stringMatching(/not inside a folder uploads are allowed from/),
      });
    expect(faultOf(await call(client, 'submitRecording', { path: text })).message).toMatch(
      /not an audio or video file/,
    );
    expect(await usedMinutes()).toBe(before);

    const sent = await call(client, 'submitRecording', { path: wav, naming: 'skip' });
    expect(sent.isError).toBeFalsy();
    expect(sent.structuredContent!.file).toEqual({ name: 'standup.wav', size: readFileSync(wav).length });
  }, 60_000);

  it('sends nothing when no folder is allowed; takes the MCP client roots as allowed folders', async () => {
    const none = await stdio({});
    expect(faultOf(await call(none, 'submitRecording', { path: toneWav(3) })).message).toMatch(
      /uploads no file: the MCP client shares no roots and MM_UPLOAD_DIRS is not set/,
    );

    const root = mkdtempSync(path.join(tmpdir(), 'mcp-root-'));
    const wav = path.join(root, 'interview.wav');
    copyFileSync(toneWav(3), wav);
    const client = new Client({ name: 'roots', version: '1.0.0' }, { capabilities: { roots: {} } });
    client.setRequestHandler(ListRootsRequestSchema, async () => ({
      roots: [{ uri: pathToFileURL(root).href, name: 'recordings' }],
    }));
    await client.connect(
      new StdioClientTransport({
        command: 'pnpm',
        args: ['-C', REPO, 'mcp'],
        // The same folder as a root and in MM_UPLOAD_DIRS: named once when a path is refused.
        env: {
          ...(process.env as Record<string, string>),
          MM_URL: stack.url,
          MM_TOKEN: writer.value,
          MM_UPLOAD_DIRS: root,
        },
        stderr: 'ignore',
      }),
    );
    clients.push(client);
    const sent = await call(client, 'submitRecording', { path: wav, naming: 'skip', title: 'From a root' });
    expect(sent.structuredContent).toMatchObject({ file: { name: 'interview.wav' }, recording: { status: 'QUEUED' } });
    expect(faultOf(await call(client, 'submitRecording', { path: toneWav(3) })).message).toMatch(
      new RegExp(`not inside a folder uploads are allowed from \\(${root.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\)$`),
    );
  }, 60_000);
});

describe('MCP over HTTP', () => {
  const cfg = (env: Record<string, string> = {}) => loadConfig({ MM_URL: stack.url, ...env });
  const rpc = { jsonrpc: '2.0', id: 1, method: 'tools/list' };
  const accept = { Accept: 'application/json, text/event-stream' };

  it('listens on loopback unless MCP_HOST says otherwise', async () => {
    const server = await listenHttp(cfg(), 0);
    try {
      expect(server.address).toBe('127.0.0.1');
    } finally {
      await server.close();
    }
  });

  it('refuses a foreign Host or Origin with 403; an allowed Origin passes', async () => {
    const app = createHttpApp(cfg({ MCP_ALLOWED_ORIGINS: 'https://app.example' }));
    const host = await request(app)
      .post('/mcp')
      .set({ ...accept, Host: 'evil.example' })
      .send(rpc);
    expect([host.status, host.body.error.message]).toEqual([403, expect.stringMatching(/Host evil\.example/)]);
    const origin = await request(app)
      .post('/mcp')
      .set({ ...accept, Origin: 'https://evil.example' })
      .send(rpc);
    expect([origin.status, origin.body.error.message]).toEqual([403, expect.stringMatching(/Origin https:\/\/evil/)]);
    const allowed = await request(app)
      .post('/mcp')
      .set({ ...accept, Origin: 'https://app.example' })
      .send(rpc);
    expect(allowed.status).toBe(401);
  });

  it('answers 401 with WWW-Authenticate naming its protected-resource metadata, which says how to get a token', async () => {
    const app = createHttpApp(cfg({ MCP_TOKEN_HELP_URL: 'https://mm.example/help/tokens' }));
    const res = await request(app).post('/mcp').set(accept).send(rpc);
    expect(res.status).toBe(401);
    const challenge = res.headers['www-authenticate'];
    expect(challenge).toMatch(/^Bearer /);
    const metadataUrl = new URL(/resource_metadata="([^"]+)"/.exec(challenge)![1]);
    const metadata = await request(app).get(metadataUrl.pathname).set('Host', metadataUrl.host);
    expect(metadata.status).toBe(200);
    expect(metadata.body).toMatchObject({
      resource: `http://${metadataUrl.host}/mcp`,
      bearer_methods_supported: ['header'],
      resource_documentation: 'https://mm.example/help/tokens',
      token_instructions: expect.stringMatching(/API token.*Authorization: Bearer/),
    });
    const bad = await request(app)
      .post('/mcp')
      .set({ ...accept, Authorization: 'Bearer svc_not_a_token' })
      .send(rpc);
    expect([bad.status, bad.headers['www-authenticate']]).toEqual([
      401,
      expect.stringMatching(/error="invalid_token"/),
    ]);
  });
});

describe('MCP over HTTP fetches audio URLs to disk, capped', () => {
  let host: Server;
  let base: string;
  beforeAll(async () => {
    host = createServer((req, res) => {
      if (req.url === '/declared') return res.writeHead(200, { 'Content-Length': '5000' }).end(Buffer.alloc(5000, 1));
      res.writeHead(200, { 'Content-Type': 'audio/wav' });
      // Chunked, no length: the cap is found while streaming.
      for (let i = 0; i < 10; i++) res.write(Buffer.alloc(1000, i));
      res.end();
    }).listen(0, '127.0.0.1');
    await new Promise((r) => host.once('listening', r));
    base = `http://127.0.0.1:${(host.address() as { port: number }).port}`;
  });
  afterAll(() => host.close());
  const leftovers = () =>
    readdirSync(tmpdir())
      .filter((d) => d.startsWith('mcp-audio-'))
      .sort();

  it('streams to a private file and names its size; past the cap it stops and leaves nothing behind', async () => {
    const before = leftovers();
    const fetched = await fetchAudio(`${base}/meeting.wav`, ['127.0.0.1'], 20_000);
    expect([fetched.filename, fetched.size, readFileSync(fetched.path).length]).toEqual([
      'meeting.wav',
      10_000,
      10_000,
    ]);
    await fetched.remove();
    await expect(fetchAudio(`${base}/big.wav`, ['127.0.0.1'], 4000)).rejects.toThrow(/larger than 4000 bytes/);
    await expect(fetchAudio(`${base}/declared`, ['127.0.0.1'], 4000)).rejects.toThrow(/larger than 4000 bytes/);
    expect(leftovers()).toEqual(before);
  });
});
