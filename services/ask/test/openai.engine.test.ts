import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { finishAnswer } from '../src/domain/answer';
import { EngineFailed } from '../src/engines/engine';
import { OpenAiAskEngine } from '../src/engines/openai.engine';

/** A tiny OpenAI-compatible chat server: each test sets its reply and reads what it received. */
let reply: { status: number; content: unknown } = { status: 500, content: null };
let received: {
  auth?: string;
  body: { model: string; response_format: unknown; messages: { role: string; content: string }[] };
}[] = [];
let server: Server;
let engine: OpenAiAskEngine;

beforeAll(async () => {
  server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      received.push({ auth: req.headers.authorization, body: JSON.parse(Buffer.concat(chunks).toString('utf8')) });
      res.writeHead(reply.status, { 'content-type': 'application/json' });
      res.end(
        JSON.stringify({
          choices: [
            { message: { content: typeof reply.content === 'string' ? reply.content : JSON.stringify(reply.content) } },
          ],
        }),
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  engine = new OpenAiAskEngine({
    baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    apiKey: 'sk-test',
    model: 'test-model',
  });
});
afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
});
beforeEach(() => {
  received = [];
});

const turns = [
  { startMs: 0, speaker: 'speaker_0', text: 'Good morning.' },
  { startMs: 4200, speaker: 'speaker_1', text: 'We ship on Friday.' },
  { startMs: 9100, speaker: 'speaker_2', text: 'John fixes the login.' },
];
const input = {
  question: 'When do we ship?',
  turns,
  maxCitations: 3,
  series: false,
  history: [{ question: 'Who fixes the login?', answer: 'John [1].' }],
};
const documents = [
  {
    recordingId: 'rec_1',
    title: 'Standup',
    recordedAt: '2026-01-02T10:00:00.000Z',
    digestText: 'Summary: ship Friday.',
    transcriptText: null,
  },
];

describe('OpenAiAskEngine', () => {
  it('sends the digests, the numbered turns and the history, and maps cited turn numbers to turns', async () => {
    reply = {
      status: 200,
      content: { answer: 'We ship on Friday [1], John said so [2].', citations: [2, 'T3'], refused: false },
    };
    const draft = await engine.answer(input, documents);
    expect(draft).toEqual({
      answer: 'We ship on Friday [1], John said so [2].',
      citations: [{ startMs: 4200 }, { startMs: 9100 }],
      refused: false,
    });
    const sent = received[0];
    expect(sent.auth).toBe('Bearer sk-test');
    expect(sent.body).toMatchObject({ model: 'test-model', response_format: { type: 'json_object' } });
    const user = sent.body.messages.find((m) => m.role === 'user')!.content;
    expect(user).toContain('T2 [speaker_1 at 0:04]: We ship on Friday.');
    expect(user).toContain('Summary: ship Friday.');
    expect(user).toContain('Q: Who fixes the login?');
  });

  it('leaves a cited number that is no turn invented: dropped when others are real, GENERATE_FAILED when all are', async () => {
    reply = { status: 200, content: { answer: 'Friday [1], and Mars [2].', citations: [2, 42], refused: false } };
    const some = finishAnswer(await engine.answer(input, documents), turns, 3, false);
    expect(some).toEqual({
      ok: true,
      answer: 'Friday [1], and Mars.',
      citations: [{ startMs: 4200, speaker: 'speaker_1' }],
      refused: false,
    });
    reply = { status: 200, content: { answer: 'Mars [1].', citations: [42], refused: false } };
    expect(finishAnswer(await engine.answer(input, documents), turns, 3, false)).toMatchObject({ ok: false });
  });

  it('fails (GENERATE_FAILED upstream) on an error status or content that is not the JSON asked for', async () => {
    reply = { status: 503, content: {} };
    await expect(engine.answer(input, documents)).rejects.toBeInstanceOf(EngineFailed);
    reply = { status: 200, content: 'not json at all' };
    await expect(engine.answer(input, documents)).rejects.toBeInstanceOf(EngineFailed);
    reply = { status: 200, content: { citations: [] } };
    await expect(engine.answer(input, documents)).rejects.toBeInstanceOf(EngineFailed);
  });
});
