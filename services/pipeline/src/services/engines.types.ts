/** A turn of the transcript as recordings stores it. */
export interface Segment {
  index: number;
  speaker: string;
  startMs: number;
  endMs: number;
  text: string;
}

export interface TranscriptDoc {
  language: string;
  speakers: { label: string; name: string | null }[];
  segments: Segment[];
  stats: Record<string, unknown>;
}

export interface DigestDoc {
  type: string;
  language: string;
  title: string | null;
  sections: ({ kind: string; title: string } & Record<string, unknown>)[];
  markdown: string;
}

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
