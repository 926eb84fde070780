import { createServer, type Server } from 'node:http';
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { CallToolResultSchema, type Progress } from '@modelcontextprotocol/sdk/types.js';
import { loadConfig } from '../../services/mcp/src/config';
import { listenHttp } from '../../services/mcp/src/http';
import { startStack, type Stack, type TestToken } from '../support/stack';
import { speakMeeting, type ScriptTurn, type SpokenMeeting } from '../support/speak-meeting';
import { callTool as call, stdioMcpClient } from '../support/mcp-client';
import { waitForEvent } from '../support/wait';
import { tokenWhoseMeetingsWaitForNames } from '../support/naming';

/**
 * The MCP server driven by the MCP SDK's own client, over stdio (`pnpm mcp` as a child process) and over Streamable HTTP, against the real stack and engines.
 */
const SCRIPT: ScriptTurn[] = [
  ['slt', 'Good morning. The new release is almost ready.'],
  ['rms', 'We decided to ship the release on Friday.'],
];

let stack: Stack;
let full: TestToken;
let reader: TestToken;
let spoken: SpokenMeeting;
let mcpHttp: { port: number; close: () => Promise<void> };
let audioHost: Server;
let audioUrl: string;
const clients: Client[] = [];

beforeAll(async () => {
  stack = await startStack({ NAMING_AUTO_WAIT_SECONDS: '1' }, { pipeline: true });
  const account = await stack.admin.account({ balanceMinutes: 200 });
  full = await stack.admin.token(account.id, [
    'recordings:read',
    'recordings:write',
    'recordings:query',
    'series:read',
    'account:read',
  ]);
  reader = await stack.admin.token(account.id, ['recordings:read', 'series:read', 'account:read']);
  spoken = await speakMeeting(SCRIPT);
  mcpHttp = await listenHttp(
    loadConfig({ MM_URL: stack.url, MCP_AUDIO_URL_HOSTS: '127.0.0.1', MCP_POLL_SECONDS: '1' }),
    0,
  );
  const wav = readFileSync(spoken.path);
  audioHost = createServer((_req, res) => res.writeHead(200, { 'Content-Type': 'audio/wav' }).end(wav)).listen(
    0,
    '127.0.0.1',
  );
  await new Promise((r) => audioHost.once('listening', r));
  audioUrl = `http://127.0.0.1:${(audioHost.address() as { port: number }).port}/meeting.wav`;
}, 60_000);
afterAll(async () => {
  for (const c of clients) await c.close();
  await mcpHttp.close();
  audioHost.close();
  await stack.stop();
});

async function stdioClient(token: string): Promise<Client> {
  const { client } = await stdioMcpClient({
    MM_URL: stack.url,
    MM_TOKEN: token,
    MM_UPLOAD_DIRS: path.dirname(spoken.path),
  });
  clients.push(client);
  return client;
}

async function httpClient(token: string): Promise<Client> {
  const client = new Client({ name: 'test', version: '1.0.0' });
  const transport = new StreamableHTTPClientTransport(new URL(`http://127.0.0.1:${mcpHttp.port}/mcp`), {
    requestInit: { headers: { Authorization: `Bearer ${token}` } },
  });
  await client.connect(transport);
  clients.push(client);
  return client;
}

const balance = async () =>
  (await stack.api.get('/api/v1/whoami').set({ Authorization: `Bearer ${full.value}` })).body.wallet
    .balanceMinutes as number;

/** Submit, wait with progress, bundle resource, ask with citations, search and events: the agent loop. */
async function agentLoop(client: Client, audio: Record<string, string>): Promise<string> {
  // Listed first: the MCP client then checks every structured result against the tool's outputSchema.
  await client.listTools();
  const submitted = await call(client, 'submitRecording', { ...audio, title: 'Release planning', naming: 'skip' });
  expect(submitted.isError).toBeFalsy();
  const name = audio.path ? path.basename(audio.path) : 'meeting.wav';
  expect(submitted.structuredContent!.file).toEqual({ name, size: readFileSync(spoken.path).length });
  const id = (submitted.structuredContent!.recording as { id: string }).id;

  const progress: Progress[] = [];
  const waited = await call(client, 'waitForRecording', { id }, (p) => progress.push(p));
  expect(waited.structuredContent).toMatchObject({ id, status: 'READY' });
  expect(progress.length).toBeGreaterThanOrEqual(1);
  // Each status the wait saw, in order; the last one (READY) may reach the client's handler after
  // the answer (the SDK drops a notification whose request has been answered), so it is not required.
  expect(progress[0]).toMatchObject({ total: 5 });
  for (const p of progress) expect(['QUEUED', 'TRANSCRIBING', 'NAMING', 'GENERATING', 'READY']).toContain(p.message);
  for (let i = 1; i < progress.length; i++) expect(progress[i].progress).toBeGreaterThan(progress[i - 1].progress);

  const resource = await client.readResource({ uri: `mm://recordings/${id}/bundle.md` });
  expect(resource.contents[0]).toMatchObject({ mimeType: 'text/markdown' });
  expect((resource.contents[0] as { text: string }).text).toMatch(/^# Release planning\n/);

  // The bundle tool answers Markdown by default, once (not again as JSON); a part reads less.
  const bundle = await call(client, 'getRecordingBundle', { id });
  expect(bundle.content[0].text).toMatch(/^# Release planning\n/);
  expect(bundle.structuredContent).toEqual({ id, format: 'markdown', part: 'all', title: 'Release planning' });
  const digest = await call(client, 'getRecordingBundle', { id, part: 'digest' });
  expect(digest.content[0].text!.length).toBeLessThan(bundle.content[0].text!.length);
  const later = await call(client, 'getRecordingBundle', { id, from: '0:03' });
  expect(later.content[0].text).toMatch(/## Transcript \(from 0:03\)/);
  expect(later.content[0].text).not.toMatch(/Good morning/);

  const asked = await call(client, 'askRecording', { id, question: 'When will the release ship?' });
  expect(asked.isError).toBeFalsy();
  const answer = asked.structuredContent as {
    answer: string;
    citations: { startMs: number; endMs: number; speaker: string | null; speakerName: string; quote: string }[];
    minutes: number;
  };
  expect(answer.minutes).toBeGreaterThan(0);
  expect(answer.citations.length).toBeGreaterThanOrEqual(1);
  expect(answer.citations[0].startMs).toBeLessThanOrEqual(spoken.durationMs);
  // Citations carry the words, the end and the speaker's name (the label when unnamed).
  expect(answer.citations[0].quote).toMatch(/\w/);
  expect(answer.citations[0].endMs).toBeGreaterThan(answer.citations[0].startMs);
  expect(answer.citations[0].speakerName).toEqual(expect.any(String));
  expect(asked.content[0].text).toMatch(/\[1\] \d+:\d\d .*: ".+"/);

  const found = await call(client, 'searchRecordings', { q: 'friday' });
  expect((found.structuredContent!.items as { id: string }[]).map((i) => i.id)).toContain(id);
  const link = found.content.find((c) => (c as { uri?: string }).uri === `mm://recordings/${id}/bundle.md`);
  expect(link).toMatchObject({ type: 'resource_link', name: 'Release planning' });
  // The moment the words are said: the turn that holds them.
  expect((link as unknown as { description: string }).description).toMatch(/at 0:0\d/);
  const hit = (found.structuredContent!.items as { id: string; startMs: number }[]).find((i) => i.id === id)!;
  const json = (await call(client, 'getRecordingBundle', { id, format: 'json' })).structuredContent!.bundle as {
    transcript: { segments: { startMs: number; text: string }[] };
  };
  expect(json.transcript.segments.find((s) => s.startMs === hit.startMs)!.text).toMatch(/friday/i);
  // A narrowing the whole structure would drop, and a range that ends before it starts, are refused.
  for (const args of [
    { id, format: 'json', part: 'digest' },
    { id, format: 'json', speaker: 'nobody' },
    { id, from: '0:10', to: '0:05' },
  ])
    expect(await call(client, 'getRecordingBundle', args)).toMatchObject({
      isError: true,
      structuredContent: { error: { code: 'VALIDATION' } },
    });

  await waitForEvent(stack, full.value, id, 'recording.ready');
  const events = await call(client, 'listEvents', {});
  const mine = (events.structuredContent!.events as { type: string; recordingId: string }[])
    .filter((e) => e.recordingId === id)
    .map((e) => e.type);
  expect(mine).toEqual(expect.arrayContaining(['recording.created', 'recording.ready']));
  return id;
}

const byNameOf = <T extends { name: string }>(tools: T[], name: string): T => tools.find((t) => t.name === name)!;

describe('MCP server', () => {
  it('lists only the tools the token admits, from the route table; spending tools state their price', async () => {
    const names = (await (await stdioClient(full.value)).listTools()).tools;
    const byName = new Map(names.map((t) => [t.name, t]));
    for (const n of [
      'whoami',
      'submitRecording',
      'waitForRecording',
      'getRecordingBundle',
      'searchRecordings',
      'askRecording',
      'listEvents',
      'getSeries',
    ])
      expect(byName.has(n)).toBe(true);
    for (const n of ['createSeries', 'askSeries', 'updateAccountSettings']) expect(byName.has(n)).toBe(false);
    expect(byName.get('askRecording')!._meta).toMatchObject({ 'mm/spends': true });
    expect(byName.get('askRecording')!.description).toMatch(/price is quoted first \(free\) and never exceeded/);
    // The Ask quotes itself: its quote is not listed beside it (less to read).
    expect(byName.has('quoteRecordingAsk')).toBe(false);
    expect(byName.get('submitRecording')!.inputSchema.properties).toHaveProperty('path');
    expect(byName.get('getRecordingStatus')!.annotations).toMatchObject({ readOnlyHint: true });

    const readOnly = (await (await httpClient(reader.value)).listTools()).tools;
    expect(readOnly.map((t) => t.name)).toEqual(
      expect.arrayContaining(['getRecordingBundle', 'listReadyRecordings', 'whoami']),
    );
    expect(readOnly.filter((t) => t._meta?.['mm/spends'])).toEqual([]);
    expect(readOnly.map((t) => t.name)).not.toContain('submitRecording');

    const overHttp = (await (await httpClient(full.value)).listTools()).tools.find(
      (t) => t.name === 'submitRecording',
    )!;
    expect(overHttp.inputSchema.properties).toHaveProperty('audioUrl');
    expect(overHttp.inputSchema.properties).not.toHaveProperty('path');
  }, 60_000);

  it('lists compact tools for a model: under 16 KB, English, no HTTP words, a key argument only where a call spends, an outputSchema each', async () => {
    const client = await stdioClient(full.value);
    const { tools } = await client.listTools();
    const listing = JSON.stringify({ tools });
    expect(listing.length).toBeLessThan(16 * 1024);
    expect(listing).not.toMatch(/[\u0600-\u06FF]/);
    expect(listing).not.toMatch(/\b(409|Idempotency-Key|Retry-After)\b/);
    for (const t of tools) {
      expect([t.name, t.outputSchema?.type]).toEqual([t.name, 'object']);
      const spends = Boolean(t._meta?.['mm/spends']);
      expect([t.name, 'idempotencyKey' in (t.inputSchema.properties ?? {})]).toEqual([t.name, spends]);
    }
    expect(byNameOf(tools, 'skipRecordingNaming').inputSchema.properties).not.toHaveProperty('action');
    const prompts = (await client.listPrompts()).prompts.map((p) => p.name);
    expect(prompts).toEqual(expect.arrayContaining(['decisions-this-week', 'open-action-items']));
    const prompt = await client.getPrompt({ name: 'open-action-items', arguments: { person: 'Sara' } });
    expect((prompt.messages[0].content as { text: string }).text).toMatch(/Sara.*searchRecordings/s);
    // A required argument left out is invalid params, not a prompt about "undefined".
    await expect(client.getPrompt({ name: 'catch-up-on-meeting', arguments: {} })).rejects.toThrow(
      /Prompt catch-up-on-meeting needs: id/,
    );
    await expect(client.getPrompt({ name: 'open-action-items', arguments: { person: ' ' } })).rejects.toThrow(
      /needs: person/,
    );
  }, 60_000);

  it('over stdio: submits a local file, waits with progress, reads the bundle resource, asks, searches, reads events', async () => {
    await agentLoop(await stdioClient(full.value), { path: spoken.path });
  }, 240_000);

  it('over Streamable HTTP: the same loop with audio fetched from an allowed host only; errors carry the contract code', async () => {
    const client = await httpClient(full.value);
    const refused = await call(client, 'submitRecording', { audioUrl: audioUrl.replace('127.0.0.1', 'localhost') });
    expect(refused.isError).toBe(true);
    expect(refused.structuredContent).toMatchObject({ error: { code: 'VALIDATION' } });
    const missing = await call(client, 'getRecordingStatus', { id: 'no-such-meeting' });
    expect(missing).toMatchObject({ isError: true, structuredContent: { error: { code: 'NOT_FOUND' } } });
    const id = await agentLoop(client, { audioUrl });

    // A spending call whose reply was lost (the client gave up at once), sent again with its key: charged once.
    const asked = { id, question: 'Who is shipping?', idempotencyKey: `lost-${randomUUID()}` };
    const before = await balance();
    await expect(
      client.callTool({ name: 'askRecording', arguments: asked }, CallToolResultSchema, { timeout: 1 }),
    ).rejects.toThrow();
    const deadline = Date.now() + 60_000;
    while ((await balance()) === before && Date.now() < deadline) await new Promise((r) => setTimeout(r, 250));
    const charged = before - (await balance());
    expect(charged).toBeGreaterThan(0);
    const again = await call(client, 'askRecording', asked);
    expect(again.isError).toBeFalsy();
    expect((again.structuredContent as { minutes: number }).minutes).toBe(charged);
    expect(await balance()).toBe(before - charged);

    // The same question without a key is a new request each time (never a key made from the call): charged again.
    const { idempotencyKey: _, ...unkeyed } = asked;
    for (const n of [1, 2]) {
      const fresh = await call(client, 'askRecording', unkeyed);
      expect(fresh.isError).toBeFalsy();
      expect(await balance()).toBe(before - charged * (1 + n));
    }
  }, 240_000);

  it('stops a wait at NAMING held for a person with next: hand naming.url over, or skipRecordingNaming then wait', async () => {
    const t = await tokenWhoseMeetingsWaitForNames(stack, ['recordings:read', 'recordings:write']);
    const client = await stdioClient(t.value);
    const sent = await call(client, 'submitRecording', { path: spoken.path });
    const id = (sent.structuredContent!.recording as { id: string }).id;

    const waited = await call(client, 'waitForRecording', { id });
    expect(waited.structuredContent).toMatchObject({
      id,
      status: 'NAMING',
      naming: { url: expect.any(String) },
      next: {
        message: expect.stringMatching(
          /or go on without names: call skipRecordingNaming with the id.* Hand naming\.url/,
        ),
        calls: [
          { name: 'skipRecordingNaming', arguments: { id } },
          { name: 'waitForRecording', arguments: { id } },
        ],
      },
    });
    expect(waited.content.map((c) => c.text).join('\n')).toMatch(/Next: .*skipRecordingNaming/);

    // The calls offered go on as they are.
    const next = (waited.structuredContent!.next as { calls: { name: string; arguments: Record<string, unknown> }[] })
      .calls;
    expect((await call(client, next[0].name, next[0].arguments)).isError).toBeFalsy();
    const ready = await call(client, next[1].name, next[1].arguments);
    expect(ready.structuredContent).toMatchObject({ id, status: 'READY' });
    expect(ready.structuredContent).not.toHaveProperty('next');
  }, 240_000);
});
