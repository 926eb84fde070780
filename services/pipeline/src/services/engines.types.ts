import type { DigestDoc, TranscriptDoc, TranscriptSegment } from '@mm/contract';

export type { DigestDoc, TranscriptDoc };
export type Segment = TranscriptSegment;

export interface GenerateInput {
  kind: string;
  /** MATCH (the transcript's own language), FA or EN. */
  outputLanguage: string;
  transcript: { language: string; speakers: { label: string; name: string | null }[]; segments: Segment[] };
  memory: string[];
}

/** The engines the pipeline runs, chosen by configuration (offline by default). */
export interface Engines {
  transcribe(input: { audioPath: string; keyterms: string[]; workDir: string }): Promise<TranscriptDoc>;
  generate(input: GenerateInput): Promise<DigestDoc>;
}
