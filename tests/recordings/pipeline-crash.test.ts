import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { Client } from 'pg';
import { connectBus, streamName } from '@mm/bus';
import { AckPolicy, DeliverPolicy, JSONCodec } from 'nats';
import { startStack, type Stack } from '../support/stack';
import { speakMeeting, STANDUP_SCRIPT } from '../support/speak-meeting';
import { waitForStatus } from '../support/wait';

/**
 * The pipeline runs as a real child process and is killed (SIGKILL) while a meeting is
 * TRANSCRIBING, then again while it is GENERATING. The digest comes from a local server that
 * speaks the OpenAI chat protocol and holds its first request, so GENERATING lasts until the kill.
 */
let stack: Stack;
let chat: http.Server;
let chatCalls = 0;
let pipeline: ChildProcess | null = null;

beforeAll(async () => {
  chat = http.createServer((req, res) => {
    let body = '';
    req.on('data', (d) => (body += d));
    req.on('end', () => {
      chatCalls++;
      if (chatCalls === 1) return; // never answered: the pipeline is killed while it waits
      const n = (JSON.parse(body).messages as { content: string }[]).map((m) => m.content).join('\n');
      void n;
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(
        JSON.stringify({
          choices: [
            {
              index: 0,
              message: {
                role: 'assistant',
                content: JSON.stringify({
                  title: 'Standup',
                  summary: { text: 'The team met for the standup.', segments: [0] },
                  decisions: [{ text: 'Ship on Friday', segments: [0] }],
                  action_items: [],
                }),
              },
            },
          ],
        }),
      );
    });
  });
  await new Promise<void>((r) => chat.listen(0, '127.0.0.1', () => r()));
  stack = await startStack({ PIPELINE_ACK_WAIT_SECONDS: '3' });
}, 60_000);

afterAll(async () => {
  pipeline?.kill('SIGKILL');
  chat.closeAllConnections();
  chat.close();
  await stack.stop();
});

function startPipeline(): ChildProcess {
  const root = path.resolve(__dirname, '../..');
  // node itself (not the tsx wrapper) so that SIGKILL reaches the pipeline and not a parent of it.
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(root, 'services/pipeline/src/main.ts')], {
    cwd: root,
    env: {
      ...stack.env,
      PIPELINE_PORT: '0',
      LLM_ENGINE: 'openai',
      OPENAI_BASE_URL: `http://127.0.0.1:${(chat.address() as AddressInfo).port}`,
      LOG_LEVEL: 'warn',
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  return child;
}

async function kill(child: ChildProcess): Promise<void> {
  const exited = new Promise((r) => child.once('exit', r));
  child.kill('SIGKILL');
  await exited;
}

it('reaches READY after kills at TRANSCRIBING and GENERATING, charged once, each event published once', async () => {
  const spoken = await speakMeeting(STANDUP_SCRIPT);
  const account = await stack.admin.account({ balanceMinutes: 100 });
  const token = await stack.admin.token(account.id, ['recordings:write', 'recordings:read', 'account:read']);
  const res = await stack.api
    .post('/api/v1/recordings')
    .set('Authorization', `Bearer ${token.value}`)
    .field('naming', 'skip')
    .attach('audio', readFileSync(spoken.path), { filename: 'standup.wav', contentType: 'audio/wav' });
  expect(res.status).toBe(202);
  const id = res.body.recording.id as string;

  pipeline = startPipeline();
  await waitForStatus(stack, token.value, id, (s) => s === 'TRANSCRIBING', 60_000);
  await kill(pipeline);

  pipeline = startPipeline();
  await waitForStatus(stack, token.value, id, (s) => s === 'GENERATING', 240_000);
  // Wait for the held digest request, then kill the pipeline inside it.
  for (let i = 0; i < 200 && chatCalls === 0; i++) await new Promise((r) => setTimeout(r, 100));
  expect(chatCalls).toBe(1);
  await kill(pipeline);

  pipeline = startPipeline();
  const ready = await waitForStatus(stack, token.value, id, (s) => s === 'READY' || s === 'FAILED', 120_000);
  expect(ready.status).toBe('READY');

  const who = await stack.api.get('/api/v1/whoami').set('Authorization', `Bearer ${token.value}`);
  expect(who.body.wallet.balanceMinutes).toBe(100 - res.body.recording.minutes);
  const db = new Client({ connectionString: stack.env.DATABASE_URL });
  await db.connect();
  const { rows } = await db.query(
    "select kind, count(*)::int as n from account.ledger_entry where account_id = $1 and kind <> 'credit' group by kind order by kind",
    [account.id],
  );
  await db.end();
  expect(rows).toEqual([
    { kind: 'capture', n: 1 },
    { kind: 'hold', n: 1 },
  ]);

  // Every event of the meeting is in the stream once per event id: created, then ready. The outbox
  // relay publishes just after the commit that made the meeting READY: read until ready is there.
  const bus = await connectBus(stack.env.NATS_URL ?? 'nats://127.0.0.1:4222', 'operator', stack.busNamespace);
  const stream = streamName(stack.busNamespace, 'RECORDINGS');
  type Event = { id: string; type: string; recordingId: string };
  const readAll = async (round: number): Promise<Event[]> => {
    const durable = `crash-test-${round}`;
    await bus.jsm.consumers.add(stream, {
      durable_name: durable,
      ack_policy: AckPolicy.None,
      deliver_policy: DeliverPolicy.All,
    });
    const consumer = await bus.js.consumers.get(stream, durable);
    const info = await bus.jsm.streams.info(stream);
    const events: Event[] = [];
    const batch = await consumer.fetch({ max_messages: info.state.messages, expires: 2000 });
    for await (const m of batch) events.push(JSONCodec<Event>().decode(m.data));
    await bus.jsm.consumers.delete(stream, durable);
    return events.filter((e) => e.recordingId === id);
  };
  let mine = await readAll(0);
  for (let round = 1; round < 20 && !mine.some((e) => e.type === 'recording.ready'); round++) {
    await new Promise((r) => setTimeout(r, 250));
    mine = await readAll(round);
  }
  await bus.close();
  expect(new Set(mine.map((e) => e.id)).size).toBe(mine.length);
  expect(mine.map((e) => e.type)).toEqual(['recording.created', 'recording.ready']);
}, 420_000);
