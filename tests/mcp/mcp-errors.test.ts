import { spawnSync } from 'node:child_process';
import { createServer as createTcpServer, connect, type Server as TcpServer } from 'node:net';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { McpError, ToolListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import request from 'supertest';
import { loadConfig } from '../../services/mcp/src/config';
import { createHttpApp } from '../../services/mcp/src/http';
import { startStack, type Stack, type TestToken } from '../support/stack';
import { callTool as call, faultOf, stdioMcpClient } from '../support/mcp-client';
import { toneWav } from '../support/media';
import { REPO } from '../support/run-mm';
import { closedPort } from '../support/addresses';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { BUS } from '@mm/contract';
import { meetingRow, PipelineVoice } from '../support/money';

/**
 * The MCP server's refusals, driven by the MCP SDK's client over stdio against the real stack:
 * arguments checked against the advertised schemas, files, Retry-After, unknown tools, resources,
 * and a start while the service does not answer.
 */
let stack: Stack;
let accountId: string;
let writer: TestToken;
let voice: PipelineVoice;
const clients: Client[] = [];
const WRITER_SCOPES = ['recordings:read', 'recordings:write', 'account:read', 'account:write'];

beforeAll(async () => {
  stack = await startStack();
  accountId = (await stack.admin.account({ balanceMinutes: 100 })).id;
  writer = await stack.admin.token(accountId, WRITER_SCOPES);
  voice = await PipelineVoice.open(stack);
}, 60_000);
afterAll(async () => {
  for (const c of clients) await c.close();
  await voice.close();
  await stack.stop();
});

async function mcp(token: string, url = stack.url) {
  // The test media and the spoken meetings live under the OS temp folder: uploads are allowed from there.
  const started = await stdioMcpClient({ MM_URL: url, MM_TOKEN: token, MM_UPLOAD_DIRS: tmpdir() });
  clients.push(started.client);
  return started;
}

const usedMinutes = async (token: string) =>
  (await stack.api.get('/api/v1/whoami').set({ Authorization: `Bearer ${token}` })).body.token.usedMinutes24h as number;

/** Relays `port` to the stack's gateway: the service "comes up" on the URL the server was given. */
async function relayToGateway(port: number): Promise<TcpServer> {
  const target = new URL(stack.url);
  const relay = createTcpServer((inbound) => {
    const outbound = connect(Number(target.port), target.hostname);
    inbound.pipe(outbound).pipe(inbound);
    inbound.on('error', () => outbound.destroy());
    outbound.on('error', () => inbound.destroy());
  }).listen(port, '127.0.0.1');
  await new Promise((r) => relay.once('listening', r));
  return relay;
}

describe('MCP server: arguments are checked against the advertised schemas before any request', () => {
  it('answers VALIDATION naming a misspelled, mistyped or missing argument, sending nothing', async () => {
    const { client } = await mcp(writer.value);
    const cases: [string, Record<string, unknown>, RegExp][] = [
      ['listReadyRecordings', { series_id: 'x' }, /series_id is not an argument of listReadyRecordings.*seriesId/],
      ['listReadyRecordings', { limit: 2, seriesID: 'x' }, /seriesID is not an argument/],
      ['listReadyRecordings', { cursor: 42 }, /^cursor must be string$/],
      ['listReadyRecordings', { limit: '2' }, /^limit must be integer$/],
      ['waitForRecording', {}, /^id is required$/],
      ['submitRecording', { path: toneWav(3), useKeyterms: 'true' }, /^useKeyterms must be boolean$/],
      ['submitRecording', { path: toneWav(3), titel: 'Weekly' }, /titel is not an argument of submitRecording/],
    ];
    for (const [name, args, message] of cases) {
      const fault = faultOf(await call(client, name, args));
      expect([name, fault.code]).toEqual([name, 'VALIDATION']);
      expect(fault.message).toMatch(message);
    }
    expect(await usedMinutes(writer.value)).toBe(0);
  }, 60_000);

  it("says the service's refusal in the tool's terms: the argument's name, not where it travelled (query.limit)", async () => {
    const { client } = await mcp(writer.value);
    const fault = faultOf(await call(client, 'listReadyRecordings', { limit: 0 }));
    expect(fault).toMatchObject({ code: 'VALIDATION', message: 'limit must be >= 1' });
  }, 60_000);

  it('takes useKeyterms as the boolean its schema says: true prices the keyterms in, false does not', async () => {
    const { client } = await mcp(writer.value);
    expect((await call(client, 'replaceAccountKeyterms', { keyterms: ['Kubernetes'] })).isError).toBeFalsy();
    const minutesOf = async (useKeyterms: boolean) => {
      const sent = await call(client, 'submitRecording', { path: toneWav(3), useKeyterms, naming: 'skip' });
      expect(sent.isError).toBeFalsy();
      return (sent.structuredContent!.recording as { minutes: number }).minutes;
    };
    // 1 minute of audio; keyterms add 20%, rounded up to a whole minute.
    expect(await minutesOf(true)).toBe(2);
    expect(await minutesOf(false)).toBe(1);
  }, 60_000);
});

describe('MCP server: tool errors carry what the caller needs', () => {
  it('refuses a missing, relative or non-file path as VALIDATION naming it, never as a protocol error', async () => {
    const { client } = await mcp(writer.value);
    const missing = path.join(tmpdir(), 'nonexistent.wav');
    expect(faultOf(await call(client, 'submitRecording', { path: missing }))).toEqual({
      code: 'VALIDATION',
      message: `path ${missing}: no such file`,
    });
    const relative = faultOf(await call(client, 'submitRecording', { path: 'm.wav' }));
    expect(relative).toMatchObject({
      code: 'VALIDATION',
      message: expect.stringMatching(/path must be absolute.*m\.wav/),
    });
    expect(faultOf(await call(client, 'submitRecording', { path: tmpdir() }))).toMatchObject({ code: 'VALIDATION' });
    const schema = (await client.listTools()).tools.find((t) => t.name === 'submitRecording')!.inputSchema;
    expect((schema.properties as Record<string, { description: string }>).path.description).toMatch(/^Absolute path/);
  }, 60_000);

  it('refuses a file that is not audio before sending; names the file when the service refuses what it holds', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'mcp-audio-'));
    const script = path.join(dir, 'notaudio.sh');
    writeFileSync(script, '#!/bin/sh\necho hello\n');
    // A WAV's first bytes (so the service takes it for audio), then nothing an audio tool can read.
    const garbage = path.join(dir, 'garbage.wav');
    writeFileSync(garbage, Buffer.concat([readFileSync(toneWav(3)).subarray(0, 12), Buffer.alloc(50_000, 7)]));
    const { client } = await mcp(writer.value);
    const before = await usedMinutes(writer.value);
    const notAudio = faultOf(await call(client, 'submitRecording', { path: script, naming: 'skip' }));
    expect(notAudio).toMatchObject({
      code: 'VALIDATION',
      message: expect.stringMatching(`^path ${script}: not an audio`),
    });
    const unreadable = faultOf(await call(client, 'submitRecording', { path: garbage, naming: 'skip' }));
    expect(unreadable.code).toMatch(/^(INVALID_AUDIO|AUDIO_INCOMPLETE)$/);
    expect(unreadable.message).toMatch(new RegExp(`^path ${garbage}: \\S`));
    expect(await usedMinutes(writer.value)).toBe(before);
  }, 60_000);

  it('carries the Retry-After of a 429 in structuredContent.error.retryAfterSeconds and in the text', async () => {
    const capped = await stack.admin.token(accountId, WRITER_SCOPES, { dailyMinuteCap: 1 });
    const { client } = await mcp(capped.value);
    expect((await call(client, 'submitRecording', { path: toneWav(3), naming: 'skip' })).isError).toBeFalsy();
    // The same arguments again are a new request (a new key): over the cap.
    const over = await call(client, 'submitRecording', { path: toneWav(3), naming: 'skip' });
    const fault = faultOf(over);
    expect(fault).toMatchObject({ code: 'TOKEN_DAILY_CAP', details: { capMinutes: 1, usedMinutes: 1 } });
    expect(fault.retryAfterSeconds).toBeGreaterThan(120);
    const text = new RegExp(`^TOKEN_DAILY_CAP: .*Retry after ${fault.retryAfterSeconds} seconds\\.$`);
    expect(over.content[0].text).toMatch(text);
  }, 60_000);

  it('reports a tool that does not exist as unknown (-32602), one the scopes exclude as TOKEN_SCOPE', async () => {
    const { client } = await mcp(writer.value);
    const unknown = await call(client, 'noSuchTool', {}).catch((err: unknown) => err);
    expect(unknown).toBeInstanceOf(McpError);
    expect(unknown).toMatchObject({ code: -32602, message: 'MCP error -32602: Unknown tool: noSuchTool' });
    const refused = {
      code: 'TOKEN_SCOPE',
      message: 'createSeries needs the scope series:write, which this token does not have',
    };
    expect(faultOf(await call(client, 'createSeries', { name: 'Weekly' }))).toEqual(refused);
    // The scope is checked first, as the API does: arguments that do not fit change nothing.
    expect(faultOf(await call(client, 'createSeries', { nome: 1 }))).toEqual(refused);
  }, 60_000);

  it('answers a missing bundle resource with the code said once; the template says it is Markdown', async () => {
    const { client } = await mcp(writer.value);
    const missing = await client
      .readResource({ uri: 'mm://recordings/no-such-meeting/bundle.md' })
      .catch((e: McpError) => e);
    expect(missing).toBeInstanceOf(McpError);
    expect((missing as McpError).message).toMatch(/^MCP error -32002: NOT_FOUND: (?!.*MCP error)/);
    expect((missing as McpError).data).toMatchObject({ code: 'NOT_FOUND' });
    const [template] = (await client.listResourceTemplates()).resourceTemplates;
    expect(template.description).toMatch(/^The meeting as one Markdown document/);
    expect(template.description).not.toMatch(/JSON|format=markdown/);
  }, 60_000);
});

describe('MCP server: starting while the service does not answer', () => {
  it('starts anyway: every tool listed, UNREACHABLE naming URL and cause, served once the service answers', async () => {
    const port = await closedPort();
    const url = `http://127.0.0.1:${port}`;
    const { client, stderr } = await mcp(writer.value, url);
    expect(stderr()).toMatch(/whoami: UNREACHABLE/);
    const every = (await client.listTools()).tools.map((t) => t.name);
    expect(every).toEqual(expect.arrayContaining(['whoami', 'createSeries', 'askSeries']));
    const fault = faultOf(await call(client, 'whoami', {}));
    expect(fault).toEqual({
      code: 'UNREACHABLE',
      message: `cannot reach the service at ${url}: connect ECONNREFUSED 127.0.0.1:${port}`,
    });

    const relay = await relayToGateway(port);
    try {
      const relisted = new Promise<void>((resolve) =>
        client.setNotificationHandler(ToolListChangedNotificationSchema, () => resolve()),
      );
      const who = await call(client, 'whoami', {});
      expect(who.isError).toBeFalsy();
      await relisted;
      const admitted = (await client.listTools()).tools.map((t) => t.name);
      expect(admitted).toContain('submitRecording');
      expect(admitted).not.toContain('createSeries');
    } finally {
      relay.close();
    }
  }, 60_000);

  it('starts with a token the service refuses and answers each call with its code', async () => {
    const revoked = await stack.admin.token(accountId, ['recordings:read']);
    await stack.admin.revoke(revoked.id);
    const { client, stderr } = await mcp(revoked.value);
    expect(stderr()).toMatch(/whoami: TOKEN_INVALID/);
    expect(faultOf(await call(client, 'listReadyRecordings', {})).code).toBe('TOKEN_INVALID');
  }, 60_000);

  it('over HTTP names the URL and the cause when the service cannot be reached', async () => {
    const url = `http://127.0.0.1:${await closedPort()}`;
    const res = await request(createHttpApp(loadConfig({ MM_URL: url })))
      .post('/mcp')
      .set({ Authorization: 'Bearer svc_any', Accept: 'application/json, text/event-stream' })
      .send({ jsonrpc: '2.0', id: 1, method: 'tools/list' });
    expect(res.status).toBe(502);
    const named = new RegExp(`^UNREACHABLE: cannot reach the service at ${url}: .*ECONNREFUSED`);
    expect(res.body.error.message).toMatch(named);
  });

  it('exits at once with a clear message when the configuration cannot work (no token, malformed URL)', () => {
    const run = (env: Record<string, string>) => {
      const { MM_TOKEN: _token, MM_URL: _url, ...rest } = process.env;
      const opts = { env: { ...rest, ...env }, input: '', encoding: 'utf8', timeout: 30_000 } as const;
      return spawnSync('pnpm', ['-C', REPO, 'mcp'], opts);
    };
    const noToken = run({ MM_URL: stack.url });
    expect([noToken.status, noToken.stderr]).toEqual([1, expect.stringContaining('MM_TOKEN is required over stdio')]);
    const badUrl = run({ MM_URL: 'http://', MM_TOKEN: writer.value });
    expect([badUrl.status, badUrl.stderr]).toEqual([1, expect.stringContaining('MM_URL is not a URL')]);
  }, 60_000);

  it('refuses an MM_URL with credentials, a query or a fragment at start, never echoing the password', () => {
    const run = (url: string) => {
      const { MM_TOKEN: _token, MM_URL: _url, ...rest } = process.env;
      const env = { ...rest, MM_URL: url, MM_TOKEN: writer.value };
      const started = Date.now();
      const out = spawnSync('pnpm', ['-C', REPO, 'mcp'], { env, input: '', encoding: 'utf8', timeout: 30_000 });
      return { status: out.status, stderr: out.stderr, seconds: (Date.now() - started) / 1000 };
    };
    const target = new URL(stack.url);
    const withCredentials = run(`http://user:s3cret@${target.host}`);
    expect(withCredentials.status).toBe(1);
    expect(withCredentials.stderr).toMatch(/MM_URL must not hold a user name or password/);
    expect(withCredentials.stderr).not.toContain('s3cret');
    expect(withCredentials.seconds).toBeLessThan(15);
    const unparseable = run('http://user:s3cret@');
    expect([unparseable.status, unparseable.stderr]).toEqual([1, expect.stringContaining('MM_URL is not a URL')]);
    expect(unparseable.stderr).not.toContain('s3cret');
    const withQuery = run(`${stack.url}/?token=s3cret#part`);
    expect(withQuery.status).toBe(1);
    expect(withQuery.stderr).toMatch(/MM_URL must not hold a query string/);
    expect(withQuery.stderr).not.toContain('s3cret');
    // The HTTP server reads the same configuration.
    expect(() => loadConfig({ MM_URL: `http://user:s3cret@${target.host}` })).toThrow(
      /^(?!.*s3cret).*user name or password/,
    );
    // The admin API and the app's pages are not the API (their tool calls would all be refused).
    expect(() => loadConfig({ MM_URL: `${stack.url}/app` })).toThrow(/points into the app, not the Meeting Memory API/);
    expect(() => loadConfig({ MM_URL: `${stack.url}/admin/v1` })).toThrow(/points into the admin API/);
  }, 60_000);
});

describe('MCP server: a wait that stops where waiting alone cannot go on says what comes next', () => {
  /** Fails the meeting's current job, as the pipeline would, each time it is queued again (the wait's own retries too). */
  function keepFailing(id: string): () => Promise<void> {
    let stopped = false;
    const loop = (async () => {
      while (!stopped) {
        const row = await meetingRow(stack, id);
        if (row.status !== 'FAILED')
          await voice.publish(BUS.jobFailed, {
            recordingId: id,
            jobId: row.jobId,
            step: 'transcribe',
            code: 'TRANSCRIBE_FAILED',
            final: true,
          });
        await new Promise((r) => setTimeout(r, 150));
      }
    })();
    return async () => {
      stopped = true;
      await loop;
    };
  }

  it('at FAILED with error.retryable adds next: retryRecording then waitForRecording, or the scope it needs', async () => {
    const { client } = await mcp(writer.value);
    const sent = await call(client, 'submitRecording', { path: toneWav(3), naming: 'skip' });
    const id = (sent.structuredContent!.recording as { id: string }).id;
    const stop = keepFailing(id);
    try {
      const waited = await call(client, 'waitForRecording', { id });
      expect(waited.isError).toBeFalsy();
      expect(waited.structuredContent).toMatchObject({
        id,
        status: 'FAILED',
        error: { code: 'TRANSCRIBE_FAILED', retryable: true },
        next: {
          message: expect.stringMatching(/can be retried at no extra cost: call retryRecording with the id/),
          calls: [
            { name: 'retryRecording', arguments: { id } },
            { name: 'waitForRecording', arguments: { id } },
          ],
        },
      });
      expect(waited.content.map((c) => c.text).join('\n')).toMatch(/Next: .*retryRecording/);

      const reader = await stack.admin.token(accountId, ['recordings:read']);
      const readOnly = (await mcp(reader.value)).client;
      const seen = await call(readOnly, 'waitForRecording', { id });
      expect(seen.structuredContent).toMatchObject({
        status: 'FAILED',
        next: { message: expect.stringMatching(/retryRecording \(needs the scope recordings:write/), calls: [] },
      });
    } finally {
      await stop();
    }
  }, 120_000);
});
