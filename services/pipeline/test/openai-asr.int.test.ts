/**
 * The OpenAI-compatible recognizer against the stand-in server, which runs pocketsphinx on each
 * piece it receives: real audio cut at pauses, encoded, sent, and joined back. Pieces are kept
 * short (about 9 s) so the 30 s standup makes several.
 */
import { speakMeeting, STANDUP_SCRIPT, type SpokenMeeting } from '../../../tests/support/speak-meeting';
import { OPENAI_MAX_FILE_BYTES, WhisperStandin, type StandinRequest } from '../../../tests/support/whisper-standin';
import type { AsrPiece, PieceCheckpoint } from '../src/engines/asr';
import { OpenAiAsr, type OpenAiAsrOptions } from '../src/engines/openai-asr';
import * as os from 'node:os';

let standin: WhisperStandin;
let meeting: SpokenMeeting;

const engine = (over: Partial<OpenAiAsrOptions> = {}) =>
  new OpenAiAsr({
    baseUrl: standin.url,
    model: 'whisper-1',
    timeoutMs: 20_000,
    attempts: 2,
    rateLimitedTries: 10,
    backoff: { baseMs: 50, maxMs: 200 },
    concurrency: 1,
    pieces: { maxPieceMs: 12_000, maxPieceBytes: 24 * 2 ** 20, worstBytesPerSecond: 33_000, searchMs: 8000 },
    format: 'flac',
    silenceDb: -55,
    tmpDir: os.tmpdir(),
    ...over,
  });

const memoryCheckpoint = (): PieceCheckpoint & { kept: Map<string, AsrPiece> } => {
  const kept = new Map<string, AsrPiece>();
  return { kept, get: async (k) => kept.get(k) ?? null, put: async (k, v) => void kept.set(k, v) };
};

const bare = (w: string) => w.toLowerCase().replace(/[^\p{L}\p{N}]+/gu, '');
/** The stand-in's own words, piece after piece (the piece number is in the file name). */
const standinWords = (requests: StandinRequest[]) =>
  [...requests]
    .filter((r) => r.status === 200)
    .sort((a, b) => a.fileName.localeCompare(b.fileName))
    .flatMap((r) => r.words.map(bare));

beforeAll(async () => {
  standin = await WhisperStandin.start();
  meeting = await speakMeeting(STANDUP_SCRIPT);
}, 120_000);

afterAll(() => standin.close());

beforeEach(() => {
  standin.requests.length = 0;
  Object.assign(standin.options, { persian: false, segmentsOnly: false, refuse: undefined });
});

describe('OpenAiAsr through the stand-in server', () => {
  let reference: string[];

  it('sends the meeting in FLAC pieces cut at pauses and joins their words at their offsets, none lost or doubled', async () => {
    const result = await engine().transcribe({ wavPath: meeting.path, keyterms: ['Sara'] });
    const sent = standin.requests;
    expect(sent.length).toBeGreaterThanOrEqual(3);
    expect(sent.every((r) => r.status === 200 && r.fileName.endsWith('.flac') && r.bytes < OPENAI_MAX_FILE_BYTES)).toBe(
      true,
    );
    expect(
      sent.every((r) => r.responseFormat === 'verbose_json' && r.model === 'whisper-1' && r.language === null),
    ).toBe(true);
    // Each later piece's prompt: the keyterms, then the end of what the previous piece said.
    expect(sent[1].prompt).toMatch(new RegExp(`^Sara\\. .*${sent[0].words[sent[0].words.length - 1]}$`));
    reference = result.words.map((w) => bare(w.word));
    expect(reference).toEqual(standinWords(sent));
    for (let i = 1; i < result.words.length; i++)
      expect(result.words[i].startMs).toBeGreaterThanOrEqual(result.words[i - 1].startMs);
    expect(result.words[result.words.length - 1].endMs).toBeLessThanOrEqual(meeting.durationMs + 100);
    // Offsets are right: each script turn's first word is heard near where flite spoke it.
    const release = result.words.find((w) => bare(w.word) === 'friday');
    expect(release?.startMs).toBeGreaterThan(meeting.turns[1].startMs);
    expect(release?.startMs).toBeLessThan(meeting.turns[1].endMs);
    expect(result.language).toBe('en');
  }, 120_000);

  it('rides out a 429 storm with Retry-After and a stalled piece, with fewer requests in flight meanwhile', async () => {
    standin.inject(
      { status: 429, retryAfterSeconds: 1 },
      { status: 429, retryAfterSeconds: 1 },
      { stall: true },
      { status: 429 },
      { status: 500 },
    );
    const asr = engine({ concurrency: 3, timeoutMs: 1500, attempts: 3 });
    const result = await asr.transcribe({ wavPath: meeting.path, keyterms: ['Sara'] });
    expect(result.words.map((w) => bare(w.word))).toEqual(reference);
    expect(standin.requests.filter((r) => r.status === 429)).toHaveLength(3);
    expect(standin.requests.filter((r) => r.status === 0)).toHaveLength(1);
    // After the first 429 the limit went to 1, so later requests found none other in flight.
    const after = standin.requests.slice(standin.requests.findIndex((r) => r.status === 429) + 3);
    expect(after.every((r) => r.inFlight === 1)).toBe(true);
  }, 120_000);

  it('fails TRANSCRIBE_FAILED when a piece never gets through, keeping the finished ones; the retry sends only the rest', async () => {
    const checkpoint = memoryCheckpoint();
    standin.options.refuse = /^piece-0002-/;
    const err = await engine()
      .transcribe({ wavPath: meeting.path, keyterms: ['Sara'], checkpoint })
      .catch((e: unknown) => e);
    expect(err).toMatchObject({ code: 'TRANSCRIBE_FAILED', retryable: true });
    expect(checkpoint.kept.size).toBe(2);
    standin.options.refuse = undefined;
    standin.requests.length = 0;
    const retry = engine();
    const result = await retry.transcribe({ wavPath: meeting.path, keyterms: ['Sara'], checkpoint });
    expect(retry.lastReport).toMatchObject({ resumed: 2, sent: retry.lastReport!.pieces - 2 });
    expect(standin.requests.map((r) => r.fileName.slice(0, 10))).toEqual(expect.arrayContaining(['piece-0002']));
    expect(standin.requests.some((r) => /^piece-000[01]-/.test(r.fileName))).toBe(false);
    expect(result.words.map((w) => bare(w.word))).toEqual(reference);
  }, 120_000);

  it('passes the meeting language and reads a segments-only Persian answer, times spread within segments', async () => {
    Object.assign(standin.options, { persian: true, segmentsOnly: true });
    const result = await engine({ format: 'opus' }).transcribe({
      wavPath: meeting.path,
      keyterms: [],
      language: 'fa-IR',
    });
    expect(standin.requests.every((r) => r.language === 'fa' && r.fileName.endsWith('.ogg'))).toBe(true);
    expect(result.language).toBe('fa');
    expect(result.words.every((w) => /^[\u0600-\u06ff\u200c]+$/.test(w.word))).toBe(true);
    expect(result.words.map((w) => w.word)).toContain('جمعه');
    for (let i = 1; i < result.words.length; i++)
      expect(result.words[i].startMs).toBeGreaterThanOrEqual(result.words[i - 1].endMs);
  }, 120_000);

  it('sends the configured spoken language when the job names none, and lets the server detect it otherwise', async () => {
    Object.assign(standin.options, { persian: true, segmentsOnly: true });
    const configured = await engine({ format: 'opus', language: 'fa' }).transcribe({
      wavPath: meeting.path,
      keyterms: [],
    });
    expect(standin.requests.length).toBeGreaterThan(1);
    expect(standin.requests.every((r) => r.language === 'fa')).toBe(true);
    expect(configured.language).toBe('fa');

    standin.requests.length = 0;
    await engine({ format: 'opus', language: 'fa' }).transcribe({
      wavPath: meeting.path,
      keyterms: [],
      language: 'en',
    });
    expect(standin.requests.every((r) => r.language === 'en')).toBe(true);

    standin.requests.length = 0;
    const detected = await engine({ format: 'opus' }).transcribe({ wavPath: meeting.path, keyterms: [] });
    expect(standin.requests.every((r) => r.language === undefined || r.language === null)).toBe(true);
    // Nothing named: the transcript's language is the one the server heard.
    expect(detected.language).toBe('fa');
  }, 120_000);
});
