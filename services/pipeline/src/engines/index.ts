/** The pipeline's engines, for the use cases and main.ts to wire by configuration. */
export { EngineError, asEngineError } from './engine-error';
export { probe, toWav16k, readPcm16k, writeWav16k, SAMPLE_RATE, type AudioProbe } from './audio';
export {
  PocketsphinxAsr,
  DEFAULT_POCKETSPHINX,
  parseWordTimes,
  type AsrEngine,
  type AsrInput,
  type AsrResult,
  type AsrWord,
  type AsrPiece,
  type PieceCheckpoint,
  type PocketsphinxOptions,
} from './asr';
export {
  VoiceClusterDiarizer,
  DEFAULT_DIARIZE,
  type Diarizer,
  type DiarizeInput,
  type DiarizeResult,
  type DiarizeOptions,
} from './diarize';
export { ExtractiveDigest, type DigestEngine } from './digest';
export { OpenAiDigest, type OpenAiOptions } from './openai';
export { OpenAiAsr, type OpenAiAsrOptions, type PieceReport } from './openai-asr';
export { transcribeMeeting, type MeetingTranscript, type TranscribeMeetingInput } from './transcribe-meeting';
