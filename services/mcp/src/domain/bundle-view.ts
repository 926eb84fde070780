/**
 * What a model reads of a meeting: the bundle as Markdown, whole or a part of it (the digest, the
 * transcript between two moments, one speaker's turns), citations with the words they cite, and
 * the moment a search found. Built from the bundle's JSON, which the tools already read. Pure.
 */
import { moment, speakerName, type Bundle } from '@mm/sdk';

export { moment };

export type Segment = Bundle['transcript']['segments'][number];

export interface Selection {
  /** `all` (default): the service's whole document; `digest`; `transcript` (narrowed by from, to, speaker). */
  part?: 'all' | 'digest' | 'transcript';
  /** Moments as `m:ss` or `h:mm:ss` from the start of the audio. */
  from?: string;
  to?: string;
  /** A speaker's given name or transcribed label. */
  speaker?: string;
}

/** `m:ss`, `mm:ss` or `h:mm:ss` in milliseconds; null when not such a moment. */
export function parseMoment(text: string): number | null {
  const m = /^(?:(\d+):)?(\d{1,3}):([0-5]\d)$/.exec(text.trim());
  if (!m) return null;
  return ((Number(m[1] ?? 0) * 60 + Number(m[2])) * 60 + Number(m[3])) * 1000;
}

/** The turns a selection keeps; a problem names the argument (an unknown speaker lists the known ones). */
export function selectedTurns(bundle: Bundle, sel: Selection): Segment[] | { problem: string } {
  const from = sel.from === undefined ? 0 : parseMoment(sel.from);
  const to = sel.to === undefined ? Infinity : parseMoment(sel.to);
  if (from === null) return { problem: `from must be a moment such as 1:05 or 1:02:30, not ${sel.from}` };
  if (to === null) return { problem: `to must be a moment such as 1:05 or 1:02:30, not ${sel.to}` };
  if (to < from) return { problem: `to (${sel.to}) must not be before from (${sel.from})` };
  let labels: string[] | null = null;
  if (sel.speaker !== undefined) {
    const wanted = sel.speaker.trim().toLowerCase();
    const people = bundle.transcript.speakers;
    labels = people
      .filter((s) => s.label.toLowerCase() === wanted || s.name?.toLowerCase() === wanted)
      .map((s) => s.label);
    if (!labels.length) {
      const known = people.map((s) => (s.name ? `${s.name} (${s.label})` : s.label)).join(', ');
      return { problem: `no speaker ${sel.speaker} in this meeting; its speakers: ${known}` };
    }
  }
  return bundle.transcript.segments.filter(
    (s) => s.endMs >= from && s.startMs <= to && (labels === null || labels.includes(s.speaker)),
  );
}

/** The selected part as Markdown (the whole document comes from the service and is not built here). */
export function partMarkdown(bundle: Bundle, sel: Selection, turns: Segment[]): string {
  const title = `# ${bundle.recording.displayTitle}`;
  if (sel.part === 'digest') return `${title}\n\n${bundle.digest.markdown}`;
  const narrowed = [
    sel.from ? `from ${sel.from}` : '',
    sel.to ? `to ${sel.to}` : '',
    sel.speaker ? `${sel.speaker} only` : '',
  ].filter(Boolean);
  const lines = turns.map((s) => `[${moment(s.startMs)}] **${speakerName(bundle, s.speaker)}**: ${s.text}`);
  const heading = `## Transcript${narrowed.length ? ` (${narrowed.join(', ')})` : ''}`;
  return [title, '', heading, '', ...(lines.length ? lines : ['(no turn in this selection)'])].join('\n');
}

/** The first turn holding one of the search's words (as the service matches: case and diacritics aside). */
export function momentFound(bundle: Bundle, q: string): Segment | undefined {
  const fold = (s: string) => s.normalize('NFKD').replace(/\p{M}/gu, '').toLowerCase();
  const words = fold(q).split(/\s+/).filter(Boolean);
  return bundle.transcript.segments.find((s) => words.some((w) => fold(s.text).includes(w)));
}
