/**
 * Citations a reader can quote: an Ask answer's citation names a moment and a speaker label; the
 * bundle holds the turn said there. Pure.
 */
import type { Bundle } from '../types';

export interface Citation {
  startMs: number;
  speaker: string | null;
  recordingId?: string;
}

/** A citation with what it cites: the turn's words, its end, the speaker's name, the moment as m:ss. */
export interface QuotedCitation extends Citation {
  quote: string | null;
  endMs: number | null;
  speakerName: string | null;
  at: string;
}

/** Milliseconds as `m:ss` (or `h:mm:ss` past an hour). */
export function moment(ms: number): string {
  const s = Math.floor(Math.max(0, ms) / 1000);
  const [h, m, sec] = [Math.floor(s / 3600), Math.floor((s % 3600) / 60), s % 60];
  const two = (n: number) => String(n).padStart(2, '0');
  return h ? `${h}:${two(m)}:${two(sec)}` : `${m}:${two(sec)}`;
}

/** The speaker's given name, else the label. */
export function speakerName(bundle: Bundle, label: string | null): string | null {
  if (label === null) return null;
  return bundle.transcript.speakers.find((s) => s.label === label)?.name ?? label;
}

/** The citation's turn in the bundle (the one starting there, else the one spanning the moment); no bundle: no quote. */
export function quoteCitation(c: Citation, bundle: Bundle | undefined): QuotedCitation {
  const turns = bundle?.transcript.segments ?? [];
  const turn =
    turns.find((s) => s.startMs === c.startMs && (c.speaker === null || s.speaker === c.speaker)) ??
    turns.find((s) => s.startMs <= c.startMs && c.startMs <= s.endMs);
  return {
    ...c,
    quote: turn?.text ?? null,
    endMs: turn?.endMs ?? null,
    speakerName: bundle ? speakerName(bundle, c.speaker) : c.speaker,
    at: moment(c.startMs),
  };
}
