/**
 * The whole transcription step as one call: measure, decode once, recognize, find speakers,
 * build turns. The pipeline's use case calls this and stores the result; it has no I/O of its
 * own beyond reading the audio and running the engines it is given.
 */
import { promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { SpeakerWord, Turn } from '../domain/turns';
import type { AsrEngine, PieceCheckpoint } from './asr';
import { probe, toWav16k } from './audio';
import type { Diarizer } from './diarize';
import { EngineError, asEngineError } from './engine-error';

export interface TranscribeMeetingInput {
  audioPath: string;
  keyterms: string[];
  language?: string;
  checkpoint?: PieceCheckpoint;
}

export interface MeetingTranscript {
  language: string;
  durationMs: number;
  speakers: string[];
  words: SpeakerWord[];
  segments: Turn[];
  /** Milliseconds spent in each step, for the engine-run record and benchmarks. */
  timings: { decodeMs: number; asrMs: number; diarizeMs: number };
}

/** Throws EngineError with AUDIO_CORRUPT, NO_SPEECH or TRANSCRIBE_FAILED. */
export async function transcribeMeeting(
  engines: { asr: AsrEngine; diarizer: Diarizer },
  input: TranscribeMeetingInput,
  tmpDir = os.tmpdir(),
): Promise<MeetingTranscript> {
  const info = await probe(input.audioPath);
  if (!info.hasAudio) throw new EngineError('AUDIO_CORRUPT', 'the file has no audio stream');
  const work = await fs.mkdtemp(path.join(tmpDir, 'mm-meeting-'));
  try {
    let t = Date.now();
    const wav = path.join(work, 'audio-16k.wav');
    await toWav16k(input.audioPath, wav);
    const decodeMs = Date.now() - t;
    t = Date.now();
    const asr = await asTranscribeFailure(
      engines.asr.transcribe({
        wavPath: wav,
        keyterms: input.keyterms,
        language: input.language,
        checkpoint: input.checkpoint,
      }),
    );
    const asrMs = Date.now() - t;
    t = Date.now();
    const who = await engines.diarizer.diarize({ wavPath: wav, words: asr.words }).catch((err: unknown) => {
      throw asEngineError(err, 'TRANSCRIBE_FAILED', 'speaker detection failed');
    });
    const diarizeMs = Date.now() - t;
    return {
      language: asr.language,
      durationMs: info.durationMs ?? (asr.words.length ? asr.words[asr.words.length - 1].endMs : 0),
      speakers: who.speakers,
      words: who.words,
      segments: who.turns,
      timings: { decodeMs, asrMs, diarizeMs },
    };
  } finally {
    await fs.rm(work, { recursive: true, force: true });
  }
}

/** Any failure that is not already an engine verdict is a (retryable) transcription failure. */
async function asTranscribeFailure<T>(p: Promise<T>): Promise<T> {
  return p.catch((err: unknown) => {
    throw asEngineError(err, 'TRANSCRIBE_FAILED', 'speech recognition failed');
  });
}
