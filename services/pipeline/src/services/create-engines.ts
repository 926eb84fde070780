import * as os from 'node:os';
import { PocketsphinxAsr } from '../engines/asr';
import { VoiceClusterDiarizer } from '../engines/diarize';
import { DecoderSlots } from '../engines/decoder-slots';
import { transcribeMeeting } from '../engines/transcribe-meeting';
import { OpenAiDigest } from '../engines/openai';
import { OpenAiAsr } from '../engines/openai-asr';
import { ExtractiveDigest, type DigestInput } from '../engines/digest';
import { stats } from '../domain/digest';
import { turnPauses } from '../domain/spoken-sentences';
import type { PipelineConfig } from '../config';
import type { DigestDoc, Engines, GenerateInput, TranscriptDoc } from './engines.types';

/** The digest's language: the transcript's own under MATCH, else the one asked for. */
export function digestLanguage(outputLanguage: string, transcriptLanguage: string): 'en' | 'fa' {
  if (outputLanguage === 'FA') return 'fa';
  if (outputLanguage === 'EN') return 'en';
  return transcriptLanguage.startsWith('fa') ? 'fa' : 'en';
}

/** The OpenAI-compatible recognizer as configured: pieces within the limits, retries, bounded concurrency. */
export function remoteAsr(config: PipelineConfig): OpenAiAsr {
  const r = config.remoteAsr;
  return new OpenAiAsr({
    baseUrl: config.openai.baseUrl,
    apiKey: config.openai.apiKey ?? undefined,
    model: config.openai.asrModel,
    timeoutMs: r.timeoutSeconds * 1000,
    attempts: r.attempts,
    rateLimitedTries: r.rateLimitedTries,
    backoff: { baseMs: r.backoffMs, maxMs: 30_000 },
    concurrency: r.concurrency,
    // FLAC never needs more than the raw samples (32,000 bytes/s) and a little framing.
    pieces: {
      maxPieceMs: r.pieceSeconds * 1000,
      maxPieceBytes: r.pieceBytes,
      worstBytesPerSecond: r.format === 'opus' ? 8000 : 33_000,
      searchMs: 8000,
    },
    format: r.format,
    language: r.language ?? undefined,
    silenceDb: -55,
    tmpDir: os.tmpdir(),
  });
}

/** Builds the engines configuration names: offline (pocketsphinx, extractive) unless told otherwise. */
export function createEngines(config: PipelineConfig): Engines {
  const openai = (model: string) => ({
    baseUrl: config.openai.baseUrl,
    apiKey: config.openai.apiKey ?? undefined,
    model,
  });
  const remote = config.asrEngine === 'openai' ? remoteAsr(config) : null;
  // One local recognizer per planned decoder count (they hold only options), all drawing on the
  // same decoder slots: at most PIPELINE_ASR_DECODERS decoders run at once, whoever planned them.
  const slots = new DecoderSlots(config.asrDecoders);
  const local = new Map<number, PocketsphinxAsr>();
  const asrWith = (decoders: number) => {
    if (remote) return remote;
    const n = Math.max(1, Math.min(decoders, config.asrDecoders));
    if (!local.has(n)) local.set(n, new PocketsphinxAsr({ parallel: n, slots }));
    return local.get(n)!;
  };
  // A Whisper-class server's word times are off by a quarter second and more: voices are then
  // compared over the audio's own voiced spans, not over each word's (docs/decisions.md).
  const diarizer = new VoiceClusterDiarizer({ timing: remote ? 'audio' : 'words' });
  const extractive = new ExtractiveDigest();
  const digest =
    config.llmEngine === 'openai'
      ? new OpenAiDigest({ ...openai(config.openai.llmModel), contextTokens: config.openai.llmContextTokens })
      : extractive;
  return {
    async transcribe({ audioPath, keyterms, decoders, language, checkpoint }): Promise<TranscriptDoc> {
      const t = await transcribeMeeting(
        { asr: asrWith(decoders ?? config.asrDecoders), diarizer },
        { audioPath, keyterms, language, checkpoint },
      );
      const pauses = turnPauses(t.words, t.segments);
      const segments = t.segments.map((s, index) => ({
        index,
        speaker: s.speaker,
        startMs: s.startMs,
        endMs: s.endMs,
        text: s.text,
        pausesMs: pauses[index],
      }));
      return {
        language: t.language,
        speakers: t.speakers.map((label) => ({ label, name: null })),
        segments,
        stats: stats(segments, { durationMs: t.durationMs }),
      };
    },
    async generate(input: GenerateInput): Promise<DigestDoc> {
      const names = new Map(input.transcript.speakers.map((s) => [s.label, s.name]));
      const language = digestLanguage(input.outputLanguage, input.transcript.language);
      // A charged silent meeting has no turns: its digest is the empty one, with no model asked.
      const engine = input.transcript.segments.length === 0 ? extractive : digest;
      const out = await engine.generate({
        kind: input.kind as DigestInput['kind'],
        language,
        segments: input.transcript.segments.map((s) => ({ ...s, speakerName: names.get(s.speaker) ?? null })),
        memory: input.memory,
      });
      return {
        type: input.kind,
        language,
        title: out.title,
        sections: out.sections as DigestDoc['sections'],
        markdown: out.markdown,
      };
    },
  };
}
