import type { DigestDoc, TranscriptDoc, TranscriptSegment } from '@mm/contract';
import type { PieceCheckpoint } from '../engines/asr';

export type { DigestDoc, TranscriptDoc };
export type Segment = TranscriptSegment;

export interface GenerateInput {
  kind: string;
  /** MATCH (the transcript's own language), FA or EN. */
  outputLanguage: string;
  transcript: { language: string; speakers: { label: string; name: string | null }[]; segments: Segment[] };
  memory: string[];
}

export interface TranscribeInput {
  audioPath: string;
  keyterms: string[];
  workDir: string;
  /**
   * Decoder processes this transcription's audio is cut for (its share of the cores when it
   * starts); engine default when absent. Its chunks then run on whatever decoder slots are free.
   */
  decoders?: number;
  /** The language the meeting is spoken in, when the submitter named it (else detected). */
  language?: string;
  /** Where a recognizer working in pieces keeps finished ones for a retry of the meeting. */
  checkpoint?: PieceCheckpoint;
}

/** The engines the pipeline runs, chosen by configuration (offline by default). */
export interface Engines {
  transcribe(input: TranscribeInput): Promise<TranscriptDoc>;
  generate(input: GenerateInput): Promise<DigestDoc>;
}
