import { readFileSync } from 'node:fs';
import { startStack, type Stack, type TestToken } from '../support/stack';
import { longMeeting, speakMeeting } from '../support/speak-meeting';
import { waitForStatus } from '../support/wait';
import { WhisperStandin } from '../support/whisper-standin';

/**
 * A whole meeting through an OpenAI-compatible recognizer that misbehaves: a storm of 429s (with
 * Retry-After), a piece that stalls past the per-piece timeout and a 500. The meeting is slowed
 * down, never failed: it reaches READY, and its transcript holds exactly the words the stand-in
 * answered for the pieces that got through (none lost, none doubled by the retries).
 */
let stack: Stack;
let standin: WhisperStandin;
let token: TestToken;

const bearer = (v: string) => ({ Authorization: `Bearer ${v}` });

beforeAll(async () => {
  standin = await WhisperStandin.start();
  stack = await startStack(
    {
      ASR_ENGINE: 'openai',
      OPENAI_BASE_URL: standin.url,
      OPENAI_API_KEY: 'sk-standin',
      // Pieces of at most 30 s so a two-minute meeting is several requests; faults resolve fast.
      OPENAI_ASR_PIECE_SECONDS: '30',
      OPENAI_ASR_CONCURRENCY: '2',
      OPENAI_ASR_TIMEOUT_SECONDS: '30',
      OPENAI_ASR_BACKOFF_MS: '100',
    },
    { pipeline: true },
  );
  const account = await stack.admin.account({ balanceMinutes: 100, developerMode: true });
  token = await stack.admin.token(account.id, ['recordings:write', 'recordings:read']);
}, 120_000);

afterAll(async () => {
  await stack?.stop();
  await standin?.close();
});

it('a 429 storm, a stalled piece and a 500 slow the meeting down but do not fail it', async () => {
  const spoken = await speakMeeting(longMeeting(2));
  standin.inject(
    ...Array.from({ length: 6 }, () => ({ status: 429 as const, retryAfterSeconds: 1 })),
    { stall: true },
    { status: 500 },
  );
  const res = await stack.api
    .post('/api/v1/recordings')
    .set(bearer(token.value))
    .field('naming', 'skip')
    .attach('audio', readFileSync(spoken.path), { filename: 'storm.wav', contentType: 'audio/wav' });
  expect(res.status).toBe(202);
  const id = res.body.recording.id as string;
  const done = await waitForStatus(stack, token.value, id, (s) => s === 'READY' || s === 'FAILED', 240_000);
  expect({ status: done.status, error: done.error ?? null, requests: standin.requests.map((r) => r.status) }).toEqual(
    expect.objectContaining({ status: 'READY' }),
  );

  // Every fault was met: six 429s, one stall the client gave up on (status 0), one 500.
  const statuses = standin.requests.map((r) => r.status);
  expect(statuses.filter((s) => s === 429)).toHaveLength(6);
  expect(statuses.filter((s) => s === 0)).toHaveLength(1);
  expect(statuses.filter((s) => s === 500)).toHaveLength(1);
  // Several pieces, each answered once: a piece retried after a fault is not transcribed twice.
  const answered = standin.transcribed;
  expect(answered.length).toBeGreaterThanOrEqual(3);
  expect(new Set(answered.map((r) => r.fileName)).size).toBe(answered.length);

  const bundle = await stack.api.get(`/api/v1/recordings/${id}/bundle`).set(bearer(token.value));
  expect(bundle.status).toBe(200);
  const heard = (bundle.body.transcript.segments as { text: string }[])
    .flatMap((s) => s.text.split(/\s+/))
    .filter(Boolean);
  const sent = answered.flatMap((r) => r.words);
  expect(sent.length).toBeGreaterThan(100);
  expect(heard.length).toBe(sent.length);
}, 360_000);
