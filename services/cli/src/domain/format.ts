/** How the command line writes times, statuses and answers. Pure. */
import type { RecordingStatus } from '@mm/sdk';

/** Milliseconds as m:ss (minutes not padded beyond two digits, hours folded into minutes). */
export function mmss(ms: number): string {
  const total = Math.max(0, Math.floor(ms / 1000));
  const m = Math.floor(total / 60);
  const s = total % 60;
  return `${String(m).padStart(2, '0')}:${String(s).padStart(2, '0')}`;
}

/** A citation as the command line shows it: with the quoted words and the speaker's name when the bundle was readable. */
export interface ShownCitation {
  startMs: number;
  speaker: string | null;
  recordingId?: string;
  quote?: string | null;
  speakerName?: string | null;
}

/** An Ask answer for a person: the answer, then `[n] mm:ss Name (label): "words"` per citation, then the charge. */
export function answerText(a: {
  answer: string;
  citations: ShownCitation[];
  minutes: number;
  refused: boolean;
}): string {
  const lines = [a.answer, ''];
  a.citations.forEach((c, i) => {
    const name = c.speakerName && c.speakerName !== c.speaker ? `${c.speakerName} (${c.speaker})` : c.speaker;
    const who = c.speaker === null ? 'unknown speaker' : name;
    const where = c.recordingId ? ` in ${c.recordingId}` : '';
    lines.push(`[${i + 1}] ${mmss(c.startMs)} ${who}${where}${c.quote ? `: "${c.quote}"` : ''}`);
  });
  lines.push(`${a.refused ? 'refused; ' : ''}charged ${a.minutes} min`);
  return lines.join('\n');
}

/** A Retry-After wait for a person: seconds below two minutes, then minutes, then hours and minutes. */
export function waitText(seconds: number): string {
  if (seconds < 120) return `${seconds} s`;
  const minutes = Math.ceil(seconds / 60);
  if (minutes < 120) return `${minutes} min`;
  return `${Math.floor(minutes / 60)} h ${minutes % 60} min`;
}

/** `STATUS id title`, then the failure's code, or where to name the speakers at NAMING. */
export function statusLine(s: RecordingStatus): string {
  const extra = s.error
    ? ` ${s.error.code}${s.error.retryable ? ' (retryable)' : ''}`
    : s.naming
      ? ` name the speakers: ${s.naming.url}`
      : '';
  return `${s.status} ${s.id}${s.title ? ` ${s.title}` : ''}${extra}`;
}

/** A byte count for a progress line: bytes below 1 kB, one decimal below 10 kB and 10 MB, so no share is rounded away. */
export function sizeText(bytes: number): string {
  if (bytes < 1000) return `${bytes} B`;
  const [n, unit] = bytes < 1_000_000 ? [bytes / 1000, 'kB'] : [bytes / 1_000_000, 'MB'];
  return `${n < 10 ? n.toFixed(1) : Math.round(n)} ${unit}`;
}

/** What an event line adds to its type: an update's change, a failure's code (and whether a retry may help). */
export function eventDetail(data: object): string {
  if ('change' in data) return ` ${String(data.change)}`;
  if ('error' in data && typeof data.error === 'object' && data.error !== null && 'code' in data.error) {
    const retry = 'retryable' in data.error && data.error.retryable === true ? ' (retryable)' : '';
    return ` ${String(data.error.code)}${retry}`;
  }
  return '';
}
