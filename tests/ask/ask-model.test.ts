import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { readFileSync } from 'node:fs';
import { startStack, type Stack, type TestToken } from '../support/stack';
import { speakMeeting, STANDUP_SCRIPT } from '../support/speak-meeting';
import { waitForStatus } from '../support/wait';

/**
 * Ask with LLM_ENGINE=openai against a local OpenAI-compatible chat server (the digest stays
 * extractive): the model's citations are checked against the real turns through the gateway.
 */
let model: { status: number; content: unknown } = { status: 500, content: null };
let server: Server;
let stack: Stack;
let token: TestToken;
let recordingId: string;

const bearer = (v: string) => ({ Authorization: `Bearer ${v}` });
const balance = async () =>
  (await stack.api.get('/api/v1/whoami').set(bearer(token.value))).body.wallet.balanceMinutes as number;
const ask = (key?: string) => {
  const r = stack.api.post(`/api/v1/recordings/${recordingId}/ask`).set(bearer(token.value));
  return (key ? r.set('Idempotency-Key', key) : r).send({ question: 'When do we ship the release?' });
};

beforeAll(async () => {
  server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      res.writeHead(model.status, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ choices: [{ message: { content: JSON.stringify(model.content) } }] }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  stack = await startStack(
    { NAMING_AUTO_WAIT_SECONDS: '1' },
    { pipeline: true, askEnv: { LLM_ENGINE: 'openai', OPENAI_BASE_URL: baseUrl } },
  );
  const account = await stack.admin.account({ balanceMinutes: 100 });
  token = await stack.admin.token(account.id, [
    'recordings:write',
    'recordings:read',
    'recordings:query',
    'account:read',
  ]);
  const spoken = await speakMeeting(STANDUP_SCRIPT);
  const sent = await stack.api
    .post('/api/v1/recordings')
    .set(bearer(token.value))
    .attach('audio', readFileSync(spoken.path), { filename: 'm.wav', contentType: 'audio/wav' });
  recordingId = sent.body.recording.id;
  expect(
    (await waitForStatus(stack, token.value, recordingId, (s) => s === 'READY' || s === 'FAILED', 180_000)).status,
  ).toBe('READY');
}, 240_000);
afterAll(async () => {
  await stack.stop();
  await new Promise((resolve) => server.close(resolve));
});

describe('Ask with a language model', () => {
  it('answers 502 GENERATE_FAILED and charges nothing when every citation is invented, or the model fails', async () => {
    const before = await balance();
    model = { status: 200, content: { answer: 'On Mars [1].', citations: [999], refused: false } };
    const invented = await ask('model-key-0001');
    expect(invented.status).toBe(502);
    expect(invented.body.error.code).toBe('GENERATE_FAILED');
    model = { status: 500, content: null };
    const failed = await ask();
    expect([failed.status, failed.body.error.code]).toEqual([502, 'GENERATE_FAILED']);
    expect(await balance()).toBe(before);

    // The failed request stored nothing: the same key now runs for real, once.
    model = { status: 200, content: { answer: 'Friday [1], says the team [2].', citations: [2, 999], refused: false } };
    const ok = await ask('model-key-0001');
    expect(ok.status).toBe(200);
    expect(ok.body.answer).toBe('Friday [1], says the team.');
    expect(ok.body.citations).toHaveLength(1);
    const bundle = (await stack.api.get(`/api/v1/recordings/${recordingId}/bundle`).set(bearer(token.value))).body;
    const second = bundle.transcript.segments.filter((s: { text: string }) => s.text.trim() !== '')[1];
    expect(ok.body.citations[0]).toEqual({ startMs: second.startMs, speaker: second.speaker });
    expect(await balance()).toBe(before - ok.body.minutes);
  });

  it('passes a refusal on, charged, with no citations', async () => {
    const before = await balance();
    model = { status: 200, content: { answer: 'The meeting does not say.', citations: [], refused: true } };
    const res = await ask();
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ refused: true, citations: [], answer: 'The meeting does not say.' });
    expect(await balance()).toBe(before - res.body.minutes);
  });
});
