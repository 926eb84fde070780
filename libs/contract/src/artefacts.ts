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
  /**
   * Silence before each word of `text` but the first, in ms, when the recognizer timed its words:
   * the digest reads sentence ends from it. Kept inside the service (the bundle and Ask do not
   * carry it); stale after an edit of the text, which the digest detects by the word count.
   */
  pausesMs?: number[];
}

/** A turn as it leaves the service (bundle, Ask): the contract's fields only. */
export function publicSegment(s: TranscriptSegment): Omit<TranscriptSegment, 'pausesMs'> {
  return { index: s.index, speaker: s.speaker, startMs: s.startMs, endMs: s.endMs, text: s.text };
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

/**
 * A transcript as a reader (a person or a model) reads it: one line per turn, the speaker's given
 * name where there is one, else the label. What an Ask reads and is priced by.
 */
export function transcriptAsText(t: Pick<TranscriptDoc, 'speakers' | 'segments'>): string {
  const names = new Map(t.speakers.map((s) => [s.label, s.name ?? s.label]));
  return t.segments.map((s) => `${names.get(s.speaker) ?? s.speaker}: ${s.text}`).join('\n');
}

/**
 * The characters an Ask reads, what it is priced by (askMeeting's and askSeries' meetings, and
 * the quotes' askMeetingPrice/askSeriesPrice): a meeting's transcript as read; a series' digests
 * and the transcripts its budget carried.
 */
export function askCharsRead(
  kind: 'meeting' | 'series',
  meetings: readonly { digestText: string; transcript: Pick<TranscriptDoc, 'speakers' | 'segments'> | null }[],
): number {
  let n = 0;
  for (const m of meetings) {
    if (kind === 'series') n += m.digestText.length;
    if (m.transcript) n += transcriptAsText(m.transcript).length;
  }
  return n;
}

/** A digest's sections as plain text (summary, then each list's items), for reading and pricing. */
export function digestAsText(sections: readonly Record<string, unknown>[]): string {
  const lines: string[] = [];
  for (const s of sections) {
    if (typeof s.title === 'string') lines.push(`${s.title}:`);
    if (typeof s.text === 'string') lines.push(s.text);
    if (Array.isArray(s.items)) {
      for (const item of s.items) {
        if (typeof item === 'string') lines.push(`- ${item}`);
        else if (item && typeof item === 'object' && typeof (item as { text?: unknown }).text === 'string')
          lines.push(`- ${(item as { text: string }).text}`);
      }
    }
  }
  return lines.join('\n');
}

/**
 * What an Ask reads of one meeting, as recordings hands it to the ask service
 * (`recordings.ask.meeting` and `recordings.ask.series`).
 */
export interface AskMeetingDoc {
  recordingId: string;
  recordedAt: string;
  title: string | null;
  language: string;
  digestText: string;
  /** null when a series Ask's budget left this meeting's transcript out (its digest is still read). */
  transcript: Pick<TranscriptDoc, 'speakers' | 'segments'> | null;
}
