import { readFileSync } from 'node:fs';
import { createAjv } from '@mm/http';
import { ROUTES } from '@mm/contract';
import { startStack, type Stack, type TestToken } from '../support/stack';
import { speakMeeting, STANDUP_SCRIPT } from '../support/speak-meeting';
import { waitForStatus } from '../support/wait';
import { WhisperStandin } from '../support/whisper-standin';

/**
 * A Persian meeting end to end with ASR_ENGINE=openai: the Whisper stand-in in its Persian mode
 * hears the standup (pocketsphinx) and answers in Persian words at the real times. The meeting
 * reaches READY with transcript language fa, a Persian digest, Persian search (Arabic letter
 * forms find Persian ones) and an Ask answered in Persian with citations of real turns.
 */
let stack: Stack;
let standin: WhisperStandin;
let token: TestToken;
let id: string;

const ajv = createAjv();
const schemaOf = (operationId: string, status = 200) =>
  ajv.compile(ROUTES.find((r) => r.operationId === operationId)!.responses.find((r) => r.status === status)!.schema);
const bearer = (v: string) => ({ Authorization: `Bearer ${v}` });
const PERSIAN = /[\u0600-\u06ff]/;

beforeAll(async () => {
  standin = await WhisperStandin.start({ persian: true });
  stack = await startStack(
    { ASR_ENGINE: 'openai', OPENAI_BASE_URL: standin.url, OPENAI_API_KEY: 'sk-standin' },
    { pipeline: true },
  );
  const account = await stack.admin.account({ balanceMinutes: 100, developerMode: true });
  token = await stack.admin.token(account.id, ['recordings:write', 'recordings:read', 'recordings:query']);
  const spoken = await speakMeeting(STANDUP_SCRIPT);
  const res = await stack.api
    .post('/api/v1/recordings')
    .set(bearer(token.value))
    .field('naming', 'skip')
    .attach('audio', readFileSync(spoken.path), { filename: 'jalase.wav', contentType: 'audio/wav' });
  expect(res.status).toBe(202);
  id = res.body.recording.id;
  const done = await waitForStatus(stack, token.value, id, (s) => s === 'READY' || s === 'FAILED', 180_000);
  expect(done.status).toBe('READY');
}, 300_000);

afterAll(async () => {
  await stack?.stop();
  await standin?.close();
});

describe('a Persian meeting through an OpenAI-compatible recognizer', () => {
  it('has a Persian transcript (language fa) and a Persian digest, the audio sent as FLAC under the limit', async () => {
    expect(standin.transcribed.length).toBeGreaterThanOrEqual(1);
    expect(standin.transcribed.every((r) => r.fileName.endsWith('.flac') && r.model === 'whisper-1')).toBe(true);
    const res = await stack.api.get(`/api/v1/recordings/${id}/bundle`).set(bearer(token.value));
    expect(res.status).toBe(200);
    const validate = schemaOf('getRecordingBundle');
    expect(validate(res.body) || validate.errors).toBe(true);
    const { transcript, digest } = res.body;
    expect(transcript.language).toBe('fa');
    expect(transcript.text).toMatch(PERSIAN);
    expect(transcript.text).not.toMatch(/[a-z]/i);
    expect(digest.language).toBe('fa');
    expect(digest.sections[0].title).toBe('خلاصه');
    expect(digest.sections[0].text).toMatch(PERSIAN);
    // "we decided" and "we agreed" came back as the Persian cues the digest looks for.
    const decisions = digest.sections.find((s: { kind: string }) => s.kind === 'decision_list');
    expect(decisions.items.join(' ')).toMatch(/تصمیم گرفتیم|توافق کردیم/);
  });

  it('finds the meeting by a Persian word written with Arabic letter forms', async () => {
    const heard = (await stack.api.get(`/api/v1/recordings/${id}/bundle`).set(bearer(token.value))).body.transcript
      .text as string;
    // A heard word with a Persian yeh or kaf, searched with the Arabic forms.
    const word = heard.split(/\s+/).find((w) => /[یک]/.test(w) && w.length >= 4)!;
    expect(word).toBeDefined();
    const arabic = word.replace(/ی/g, 'ي').replace(/ک/g, 'ك');
    const res = await stack.api.get('/api/v1/recordings/search').query({ q: arabic }).set(bearer(token.value));
    expect(res.status).toBe(200);
    expect(res.body.items.map((i: { id: string }) => i.id)).toContain(id);
    expect(res.body.items.find((i: { id: string }) => i.id === id).snippet).toContain(word);
  });

  it('answers a Persian question in Persian, citing real turns', async () => {
    const res = await stack.api
      .post(`/api/v1/recordings/${id}/ask`)
      .set(bearer(token.value))
      .send({ question: 'درباره انتشار و جمعه چه تصمیم گرفتیم؟' });
    expect(res.status).toBe(200);
    const validate = schemaOf('askRecording');
    expect(validate(res.body) || validate.errors).toBe(true);
    expect(res.body.refused).toBe(false);
    expect(res.body.answer).toMatch(PERSIAN);
    expect(res.body.citations.length).toBeGreaterThanOrEqual(1);
    expect(res.body.answer).toContain('[1]');
    const segments = (await stack.api.get(`/api/v1/recordings/${id}/bundle`).set(bearer(token.value))).body.transcript
      .segments as Array<{ startMs: number }>;
    for (const c of res.body.citations) expect(segments.map((s) => s.startMs)).toContain(c.startMs);
  });
});
