import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { DigestSegment } from '../src/domain/digest';
import { EngineError } from '../src/engines/engine-error';
import { AdaptiveLimit } from '../src/engines/adaptive-limit';
import { OpenAiDigest } from '../src/engines/openai';
import { requestTranscription, type TranscriptionClientOptions, wordsOf } from '../src/engines/openai-transcription';

/** A tiny OpenAI-compatible server: each test sets how it answers and reads what it received. */
interface Received {
  path: string;
  auth: string | undefined;
  form?: FormData;
  json?: { model: string; response_format: unknown; messages: Array<{ role: string; content: string }> };
}
type Reply = { status: number; body: unknown; headers?: Record<string, string> } | 'stall';
let answer: (r: Received) => Reply = () => ({ status: 500, body: {} });
let received: Received[] = [];
let server: Server;
let baseUrl: string;

async function readRequest(req: IncomingMessage): Promise<Received> {
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  const body = Buffer.concat(chunks);
  const r: Received = { path: req.url ?? '', auth: req.headers.authorization };
  const type = String(req.headers['content-type'] ?? '');
  // Let undici parse the multipart body exactly as a real server framework would.
  if (type.startsWith('multipart/'))
    r.form = await new Request('http://local/', { method: 'POST', headers: { 'content-type': type }, body }).formData();
  else r.json = JSON.parse(body.toString('utf8'));
  return r;
}

beforeAll(async () => {
  server = createServer((req, res) => {
    readRequest(req).then((r) => {
      received.push(r);
      const reply = answer(r);
      if (reply === 'stall') return;
      res.writeHead(reply.status, { 'content-type': 'application/json', ...reply.headers });
      res.end(typeof reply.body === 'string' ? reply.body : JSON.stringify(reply.body));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

beforeEach(() => {
  received = [];
});

const VERBOSE = {
  task: 'transcribe',
  language: 'english',
  duration: 4.2,
  text: 'Hello Sara. Is the release ready?',
  segments: [
    { id: 0, start: 0, end: 1.5, text: ' Hello Sara.', no_speech_prob: 0.01 },
    { id: 1, start: 1.6, end: 4.2, text: ' Is the release ready?', no_speech_prob: 0.01 },
  ],
  words: [
    { word: 'Hello', start: 0.0, end: 0.5 },
    { word: 'Sara', start: 0.6, end: 1.2 },
    { word: 'Is', start: 1.6, end: 1.8 },
    { word: 'the', start: 1.8, end: 2.0 },
    { word: 'release', start: 2.0, end: 2.8 },
    { word: 'ready', start: 2.9, end: 3.6 },
  ],
};

describe('the transcription client', () => {
  const limit = () => new AdaptiveLimit(2);
  const options = (over: Partial<TranscriptionClientOptions> = {}): TranscriptionClientOptions => ({
    baseUrl: `${baseUrl}/v1/`,
    apiKey: 'sk-test',
    model: 'whisper-1',
    timeoutMs: 2000,
    attempts: 3,
    rateLimitedTries: 5,
    backoff: { baseMs: 10, maxMs: 50 },
    ...over,
  });
  const send = (over: Partial<TranscriptionClientOptions> = {}, lim = limit()) =>
    requestTranscription(options(over), lim, {
      file: new Blob([Buffer.from('fLaC fake audio bytes')]),
      fileName: 'piece-0000-0.flac',
      prompt: 'Sara, Project Apollo.',
      language: 'fa',
    });

  it('posts the piece with its prompt and language and asks for word and segment times', async () => {
    answer = () => ({ status: 200, body: VERBOSE });
    const result = await send();
    const [r] = received;
    expect(r.path).toBe('/v1/audio/transcriptions');
    expect(r.auth).toBe('Bearer sk-test');
    expect(r.form?.get('model')).toBe('whisper-1');
    expect(r.form?.get('prompt')).toBe('Sara, Project Apollo.');
    expect(r.form?.get('response_format')).toBe('verbose_json');
    expect(r.form?.getAll('timestamp_granularities[]')).toEqual(['word', 'segment']);
    expect(r.form?.get('language')).toBe('fa');
    const file = r.form?.get('file') as File;
    expect(file.name).toBe('piece-0000-0.flac');
    expect(Buffer.from(await file.arrayBuffer()).toString()).toBe('fLaC fake audio bytes');
    expect(result.language).toBe('en');
    // Punctuation comes back from the segment text, times from the word list.
    expect(result.words).toEqual([
      { word: 'Hello', startMs: 0, endMs: 500 },
      { word: 'Sara.', startMs: 600, endMs: 1200 },
      { word: 'Is', startMs: 1600, endMs: 1800 },
      { word: 'the', startMs: 1800, endMs: 2000 },
      { word: 'release', startMs: 2000, endMs: 2800 },
      { word: 'ready?', startMs: 2900, endMs: 3600 },
    ]);
  });

  it('spreads segment words over the segment by length when the server gives no word times', () => {
    const words = wordsOf({ ...VERBOSE, words: undefined });
    expect(words.map((w) => w.word)).toEqual(['Hello', 'Sara.', 'Is', 'the', 'release', 'ready?']);
    expect(words[2].startMs).toBe(1600);
    expect(words[5].endMs).toBe(4200);
    // "release" (7 letters) takes longer than "Is" (2).
    expect(words[4].endMs - words[4].startMs).toBeGreaterThan(2 * (words[2].endMs - words[2].startMs));
  });

  it('tries again after a 500 and after a stalled answer, then gives the words', async () => {
    let n = 0;
    answer = () =>
      ++n === 1
        ? { status: 500, body: { error: { message: 'overloaded' } } }
        : n === 2
          ? 'stall'
          : { status: 200, body: VERBOSE };
    const result = await send({ timeoutMs: 300 });
    expect(n).toBe(3);
    expect(result.words).toHaveLength(6);
  });

  it('waits out a 429 for its Retry-After and halves the requests in flight', async () => {
    let n = 0;
    answer = () =>
      ++n === 1
        ? { status: 429, body: { error: { message: 'Rate limit reached' } }, headers: { 'retry-after': '1' } }
        : { status: 200, body: VERBOSE };
    const lim = new AdaptiveLimit(4);
    const started = Date.now();
    await send({}, lim);
    expect(Date.now() - started).toBeGreaterThanOrEqual(950);
    expect(lim.current).toBe(2);
  });

  it.each([
    [
      'AUDIO_CORRUPT',
      'a file it cannot decode',
      { status: 400, body: { error: { message: 'Invalid file format. Supported formats: flac, m4a, mp3, wav' } } },
      1,
    ],
    ['TRANSCRIBE_FAILED', 'server errors on every try', { status: 500, body: { error: { message: 'overloaded' } } }, 3],
    [
      'TRANSCRIBE_FAILED',
      'a refused key, without retrying',
      { status: 401, body: { error: { message: 'Incorrect API key provided' } } },
      1,
    ],
  ])('fails with %s when the server answers %s', async (code, _what, reply, tries) => {
    answer = () => reply;
    await expect(send()).rejects.toMatchObject({ code });
    expect(received).toHaveLength(tries);
  });

  it('is TRANSCRIBE_FAILED, retryable, when the server cannot be reached', async () => {
    const err = await send({ baseUrl: 'http://127.0.0.1:1' }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(EngineError);
    expect(err).toMatchObject({ code: 'TRANSCRIBE_FAILED', retryable: true });
  });
});

const SEGMENTS: DigestSegment[] = [
  {
    index: 0,
    speaker: 'speaker_0',
    speakerName: 'Sara',
    startMs: 0,
    endMs: 4000,
    text: 'We decided to ship the release on Friday.',
  },
  {
    index: 1,
    speaker: 'speaker_1',
    speakerName: null,
    startMs: 4500,
    endMs: 8000,
    text: 'John will fix the login bug. Can we test it on Thursday?',
  },
];

const chat = (content: unknown): { status: number; body: unknown } => ({
  status: 200,
  body: {
    choices: [
      {
        index: 0,
        message: { role: 'assistant', content: typeof content === 'string' ? content : JSON.stringify(content) },
      },
    ],
  },
});

describe('OpenAiDigest', () => {
  const engine = (): OpenAiDigest => new OpenAiDigest({ baseUrl, apiKey: 'sk-test', model: 'gpt-test' });

  it('asks for JSON with the transcript and builds the template from the answer', async () => {
    answer = () =>
      chat({
        title: 'Release plan',
        summary: { text: 'The team will ship on Friday.', segments: [0] },
        decisions: [{ text: 'Ship the release on Friday', segments: [0] }],
        action_items: [{ text: 'Fix the login bug', owner: 'John', segments: [1] }],
      });
    const digest = await engine().generate({
      kind: 'MEETING',
      language: 'en',
      segments: SEGMENTS,
      memory: ['Sara leads the release'],
    });
    const [r] = received;
    expect(r.path).toBe('/v1/chat/completions');
    expect(r.json?.model).toBe('gpt-test');
    expect(r.json?.response_format).toEqual({ type: 'json_object' });
    expect(r.json?.messages[1].content).toContain('[1] speaker_1 (0:04): John will fix the login bug.');
    expect(r.json?.messages[0].content).toContain('Sara leads the release');
    expect(digest).toMatchObject({
      type: 'MEETING',
      title: 'Release plan',
      sections: [
        { kind: 'summary', title: 'Summary', text: 'The team will ship on Friday.' },
        { kind: 'decision_list', items: ['Ship the release on Friday'] },
        { kind: 'action_item_list', items: [{ text: 'Fix the login bug', owner: 'John' }] },
      ],
    });
    expect(digest.markdown).toContain('- [ ] Fix the login bug — **John**');
  });

  it('drops items citing segments that do not exist, misquoted questions and invented owners', async () => {
    answer = () =>
      chat({
        title: 'Interview',
        summary: { text: 'A short talk about testing.', segments: [1] },
        questions: [
          { text: 'Can we test it on Thursday?', quote: 'Can we test it on Thursday?', segments: [1] },
          { text: 'Did anyone see the budget?', quote: 'Did anyone see the budget?', segments: [1] },
          { text: 'What about Monday?', quote: 'What about Monday?', segments: [9] },
        ],
        key_points: [{ text: 'Testing happens Thursday', segments: [1] }],
      });
    const digest = await engine().generate({ kind: 'INTERVIEW', language: 'en', segments: SEGMENTS });
    expect(digest.sections[1]).toEqual({
      kind: 'question_list',
      title: 'Questions',
      items: ['Can we test it on Thursday?'],
    });
    answer = () => chat({ summary: 'ok', action_items: [{ text: 'Call the bank', owner: 'Mallory', segments: [0] }] });
    const memo = await engine().generate({ kind: 'VOICE_MEMO', language: 'en', segments: SEGMENTS });
    expect(memo.sections[1]).toMatchObject({ items: [{ text: 'Call the bank', owner: null }] });
  });

  it('refuses an answer whose citations are all invented', async () => {
    answer = () =>
      chat({
        title: 'x',
        summary: { text: 'Made up.', segments: [42] },
        decisions: [{ text: 'Nothing real', segments: [42] }],
      });
    await expect(engine().generate({ kind: 'MEETING', language: 'en', segments: SEGMENTS })).rejects.toMatchObject({
      code: 'GENERATE_FAILED',
    });
  });

  it.each([
    ['text that is not JSON', chat('this is not json')],
    ['a server error', { status: 503, body: { error: 'busy' } }],
    ['an answer without a message', { status: 200, body: { choices: [] } }],
  ])('is GENERATE_FAILED for %s', async (_what, reply) => {
    answer = () => reply;
    await expect(engine().generate({ kind: 'MEETING', language: 'en', segments: SEGMENTS })).rejects.toMatchObject({
      code: 'GENERATE_FAILED',
    });
  });

  it('summarises a transcript longer than its budget in parts and merges them, every citation a real turn', async () => {
    const long: DigestSegment[] = Array.from({ length: 12 }, (_, i) => ({
      index: i,
      speaker: `speaker_${i % 2}`,
      speakerName: null,
      startMs: i * 60_000,
      endMs: i * 60_000 + 50_000,
      text: `Topic ${i}: we decided to move item ${i} forward. ${'The team went through the details at length. '.repeat(8)}`,
    }));
    answer = (r) => {
      const [system, user] = r.json!.messages.map((m) => m.content);
      if (system.includes('summaries of consecutive parts'))
        return chat({
          title: 'The whole plan',
          summary: { text: 'Twelve items moved forward.', segments: [0, 11, 99] },
        });
      const lines = [...user.matchAll(/^\[(\d+)\]/gm)].map((m) => Number(m[1]));
      return chat({
        summary: { text: `Items ${lines[0]} to ${lines[lines.length - 1]}.`, segments: [lines[0]] },
        decisions: [
          ...lines.map((n) => ({ text: `Move item ${n} forward`, segments: [n] })),
          { text: 'Invented', segments: [lines[lines.length - 1] + 1] },
        ],
      });
    };
    const digest = await new OpenAiDigest({ baseUrl, model: 'gpt-test', contextTokens: 1000 }).generate({
      kind: 'MEETING',
      language: 'en',
      segments: long,
    });
    const parts = received.filter((r) => !r.json!.messages[0].content.includes('summaries of consecutive parts'));
    expect(parts.length).toBeGreaterThanOrEqual(3);
    // Each request stays within the budget; together the parts hold every segment once.
    for (const r of parts)
      expect(r.json!.messages.map((m) => m.content).join('\n').length / 3).toBeLessThanOrEqual(1000);
    const seen = parts.flatMap((r) =>
      [...r.json!.messages[1].content.matchAll(/^\[(\d+)\]/gm)].map((m) => Number(m[1])),
    );
    expect(seen).toEqual(long.map((s) => s.index));
    expect(received[received.length - 1].json!.messages[1].content).toContain('Part 1 (lines 0)');
    expect(digest.title).toBe('The whole plan');
    expect(digest.sections[0]).toMatchObject({ kind: 'summary', text: 'Twelve items moved forward.' });
    // Items citing the next part's first line were checked against their own part and dropped.
    expect(digest.sections[1]).toMatchObject({
      kind: 'decision_list',
      items: long.map((s) => `Move item ${s.index} forward`),
    });
  });

  it('writes Persian section titles and falls back to a suggested title', async () => {
    answer = () =>
      chat({ summary: { text: 'خلاصه جلسه', segments: [0] }, decisions: [{ text: 'انتشار جمعه', segments: [0] }] });
    const digest = await engine().generate({ kind: 'CALL', language: 'fa', segments: SEGMENTS });
    expect(digest.sections.map((s) => s.title)).toEqual(['خلاصه', 'تصمیم‌ها', 'کارهای پیگیری']);
    expect(digest.title).not.toBe('');
  });
});
