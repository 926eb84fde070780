/**
 * The offline engines for real: flite speaks, pocketsphinx transcribes, the diarizer finds the
 * voices. Nothing is mocked; the audio files are cached per input by speakMeeting.
 */
import { randomBytes } from 'node:crypto';
import { promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import {
  longMeeting,
  silence,
  speakMeeting,
  STANDUP_SCRIPT,
  type SpokenMeeting,
} from '../../../tests/support/speak-meeting';
import { seededRandom } from '../../../tests/support/seeded-random';
import { PocketsphinxAsr } from '../src/engines/asr';
import { VoiceClusterDiarizer } from '../src/engines/diarize';
import { ExtractiveDigest } from '../src/engines/digest';
import { transcribeMeeting, type MeetingTranscript } from '../src/engines/transcribe-meeting';

const engines = { asr: new PocketsphinxAsr(), diarizer: new VoiceClusterDiarizer() };

const STOP = new Set(
  'the a an and to of on in is are that this we us let them you all for with will be it at by'.split(' '),
);
const contentWords = (text: string): Set<string> =>
  new Set(
    text
      .toLowerCase()
      .replace(/[^a-z' ]+/g, ' ')
      .split(/\s+/)
      .filter((w) => w.length > 2 && !STOP.has(w)),
  );

/** Share of the script's distinct content words that appear in the transcript. */
function wordRecall(meeting: SpokenMeeting, transcript: MeetingTranscript): number {
  const said = contentWords(meeting.turns.map((t) => t.text).join(' '));
  const heard = contentWords(transcript.segments.map((s) => s.text).join(' '));
  return [...said].filter((w) => heard.has(w)).length / said.size;
}

/** For each spoken turn, the segment starting within 1.5 s of it (or undefined). */
function matchTurns(meeting: SpokenMeeting, transcript: MeetingTranscript) {
  return meeting.turns.map((turn) => ({
    turn,
    segment: transcript.segments.find((s) => Math.abs(s.startMs - turn.startMs) <= 1500),
  }));
}

describe('a three-voice standup spoken by flite with pauses between turns', () => {
  let meeting: SpokenMeeting;
  let transcript: MeetingTranscript;

  beforeAll(async () => {
    meeting = await speakMeeting(STANDUP_SCRIPT);
    transcript = await transcribeMeeting(engines, { audioPath: meeting.path, keyterms: ['Sara', 'Kubernetes'] });
  }, 180000);

  it('hears at least two speakers, and in fact tells all three voices apart', () => {
    expect(transcript.speakers.length).toBeGreaterThanOrEqual(2);
    expect(transcript.speakers).toEqual(['speaker_0', 'speaker_1', 'speaker_2']);
  });

  it('starts a segment within 1.5 s of every spoken turn, labelled by voice', () => {
    const matches = matchTurns(meeting, transcript);
    expect(matches.filter((m) => !m.segment)).toEqual([]);
    const labelOf = new Map<string, string>();
    for (const { turn, segment } of matches) {
      const label = labelOf.get(turn.voice) ?? segment!.speaker;
      labelOf.set(turn.voice, label);
      expect(segment!.speaker).toBe(label);
    }
    expect(new Set(labelOf.values()).size).toBe(3);
  });

  it('gets at least 40% of the distinct content words of the script', () => {
    expect(wordRecall(meeting, transcript)).toBeGreaterThanOrEqual(0.4);
  });

  it('numbers speakers by first appearance and writes keyterms with their capitals', () => {
    expect(transcript.segments[0].speaker).toBe('speaker_0');
    expect(transcript.segments.map((s) => s.text).join(' ')).toContain('Sara');
    expect(transcript.durationMs).toBeGreaterThan(25000);
  });

  it("tells the three voices apart on word times coarse as a Whisper server's (each edge moved up to ±250 ms)", async () => {
    const random = seededRandom(31);
    const coarse = transcript.words
      .map((w) => {
        const startMs = Math.max(0, Math.round(w.startMs + (random() * 2 - 1) * 250));
        return { word: w.word, startMs, endMs: Math.max(startMs + 10, Math.round(w.endMs + (random() * 2 - 1) * 250)) };
      })
      .sort((a, b) => a.startMs - b.startMs);
    const out = await new VoiceClusterDiarizer({ timing: 'audio' }).diarize({ wavPath: meeting.path, words: coarse });
    expect(out.speakers).toEqual(['speaker_0', 'speaker_1', 'speaker_2']);
    const labelOf = new Map<string, string>();
    for (const turn of meeting.turns) {
      const segment = out.turns.find((s) => Math.abs(s.startMs - turn.startMs) <= 1000);
      expect(segment).toBeDefined();
      const label = labelOf.get(turn.voice) ?? segment!.speaker;
      labelOf.set(turn.voice, label);
      expect(segment!.speaker).toBe(label);
    }
    expect(new Set(labelOf.values()).size).toBe(3);
  }, 60000);

  it('gives the digest engine a decision and owned action items to find', async () => {
    const segments = transcript.segments.map((s) => ({ ...s, speakerName: null }));
    const digest = await new ExtractiveDigest().generate({ kind: 'MEETING', language: 'en', segments });
    const decisions = digest.sections.find((s) => s.kind === 'decision_list');
    const actions = digest.sections.find((s) => s.kind === 'action_item_list');
    expect(decisions?.kind === 'decision_list' && decisions.items.some((i) => /decided|agreed/.test(i))).toBe(true);
    expect(actions?.kind === 'action_item_list' && actions.items.map((i) => i.owner)).toEqual(
      expect.arrayContaining(['Sara', 'John']),
    );
  });
});

describe('voices that follow each other without any pause', () => {
  it('still splits the run of words where the voice changes', async () => {
    const meeting = await speakMeeting(STANDUP_SCRIPT, { gapMs: 0, trim: true });
    const transcript = await transcribeMeeting(engines, { audioPath: meeting.path, keyterms: [] });
    expect(transcript.speakers.length).toBeGreaterThanOrEqual(2);
    const matches = matchTurns(meeting, transcript);
    expect(matches.filter((m) => !m.segment).map((m) => m.turn.text)).toEqual([]);
    // Neighbouring turns are different voices, so their segments must carry different labels.
    for (let i = 1; i < matches.length; i++)
      expect(matches[i].segment!.speaker).not.toBe(matches[i - 1].segment!.speaker);
  }, 180000);
});

describe('a short meeting where each voice speaks once (outside review, session 39)', () => {
  // Each voice has one unbroken stretch of under 5 s: the lone-speaker rule, set for a stray
  // stretch in a long meeting, dissolved all but one of them into a single speaker.
  const ONE_EACH: Array<['slt' | 'rms' | 'awb', string]> = [
    ['slt', 'Good morning everyone, let us start the weekly budget sync about the marketing campaign.'],
    ['rms', 'We decided to ship the release on Friday after the security review is finished.'],
    ['awb', 'I will write the release notes by Thursday and send them to the design team.'],
  ];

  it.each([
    ['three voices, 1.2 s apart', ONE_EACH, 1200, 3],
    ['two voices, 2.5 s apart', ONE_EACH.slice(0, 2), 2500, 2],
  ])(
    'tells each voice apart: %s',
    async (_name, script, gapMs, voices) => {
      const meeting = await speakMeeting(script, { gapMs });
      const transcript = await transcribeMeeting(engines, { audioPath: meeting.path, keyterms: [] });
      expect(transcript.speakers).toHaveLength(voices);
      const matches = matchTurns(meeting, transcript);
      expect(matches.map((m) => m.segment?.speaker)).toEqual(transcript.speakers);
    },
    180000,
  );

  it('keeps one voice speaking three times, 1.2 s apart, one speaker', async () => {
    const meeting = await speakMeeting(
      ONE_EACH.map(([, text]) => ['awb', text] as ['awb', string]),
      { gapMs: 1200 },
    );
    const transcript = await transcribeMeeting(engines, { audioPath: meeting.path, keyterms: [] });
    expect(transcript.speakers).toEqual(['speaker_0']);
  }, 180000);
});

describe('a monologue', () => {
  it('stays one speaker for a minute of a single voice', async () => {
    const meeting = await speakMeeting(longMeeting(1).map(([, text]) => ['rms', text] as ['rms', string]));
    const transcript = await transcribeMeeting(engines, { audioPath: meeting.path, keyterms: [] });
    expect(transcript.speakers).toEqual(['speaker_0']);
    expect(new Set(transcript.segments.map((s) => s.speaker))).toEqual(new Set(['speaker_0']));
  }, 180000);
});

describe('compressed input', () => {
  it('transcribes an mp3 at 44.1 kHz as well as the wav', async () => {
    const meeting = await speakMeeting(STANDUP_SCRIPT, { format: 'mp3', sampleRate: 44100 });
    const transcript = await transcribeMeeting(engines, { audioPath: meeting.path, keyterms: [] });
    expect(transcript.speakers.length).toBeGreaterThanOrEqual(2);
    expect(wordRecall(meeting, transcript)).toBeGreaterThanOrEqual(0.4);
  }, 180000);
});

describe('audio the engines refuse', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await fs.mkdtemp(path.join(os.tmpdir(), 'mm-asr-refuse-'));
  });
  afterAll(async () => {
    await fs.rm(dir, { recursive: true, force: true });
  });

  const write = async (name: string, bytes: Buffer): Promise<string> => {
    const file = path.join(dir, name);
    await fs.writeFile(file, bytes);
    return file;
  };

  it('is NO_SPEECH for silence', async () => {
    const file = await silence(5);
    await expect(new PocketsphinxAsr().transcribe({ wavPath: file, keyterms: [] })).rejects.toMatchObject({
      code: 'NO_SPEECH',
    });
    await expect(transcribeMeeting(engines, { audioPath: file, keyterms: [] })).rejects.toMatchObject({
      code: 'NO_SPEECH',
    });
  });

  it('is AUDIO_CORRUPT for garbage bytes behind a valid wav header', async () => {
    const header = (await fs.readFile(await silence(1))).subarray(0, 44);
    const file = await write('garbage.wav', Buffer.concat([header, randomBytes(160000)]));
    await expect(transcribeMeeting(engines, { audioPath: file, keyterms: [] })).rejects.toMatchObject({
      code: 'AUDIO_CORRUPT',
    });
  });

  it('is AUDIO_CORRUPT for garbage bytes behind a bare RIFF/WAVE tag', async () => {
    const file = await write(
      'broken.wav',
      Buffer.concat([Buffer.from('RIFF\x24\x00\x01\x00WAVE', 'latin1'), randomBytes(60000)]),
    );
    await expect(new PocketsphinxAsr().transcribe({ wavPath: file, keyterms: [] })).rejects.toMatchObject({
      code: 'AUDIO_CORRUPT',
    });
    await expect(transcribeMeeting(engines, { audioPath: file, keyterms: [] })).rejects.toMatchObject({
      code: 'AUDIO_CORRUPT',
    });
  });

  it('is TRANSCRIBE_FAILED, retryable, when the decoder cannot run', async () => {
    const meeting = await speakMeeting(STANDUP_SCRIPT);
    const asr = new PocketsphinxAsr({ binary: 'pocketsphinx-not-installed' });
    await expect(asr.transcribe({ wavPath: meeting.path, keyterms: [] })).rejects.toMatchObject({
      code: 'TRANSCRIBE_FAILED',
      retryable: true,
    });
  });

  it('is TRANSCRIBE_FAILED for a language pocketsphinx has no model for', async () => {
    const meeting = await speakMeeting(STANDUP_SCRIPT);
    await expect(
      new PocketsphinxAsr().transcribe({ wavPath: meeting.path, keyterms: [], language: 'fa' }),
    ).rejects.toMatchObject({ code: 'TRANSCRIBE_FAILED' });
  });
});
