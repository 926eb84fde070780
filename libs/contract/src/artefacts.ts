/**
 * The documents pipeline and recordings hand each other through the audio store (too large for a
 * NATS message): a transcript written by the transcription step, a digest by the digest step.
 */

/** One turn of a transcript. */
export interface TranscriptSegment {
  index: number;
  speaker: string;
  startMs: number;
  endMs: number;
  text: string;
}

export interface TranscriptDoc {
  language: string;
  speakers: { label: string; name: string | null }[];
  segments: TranscriptSegment[];
  stats: Record<string, unknown>;
}

export interface DigestDoc {
  type: string;
  language: string;
  title: string | null;
  sections: ({ kind: string; title: string } & Record<string, unknown>)[];
  markdown: string;
}
