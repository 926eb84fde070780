/** How the command line writes times and answers. Pure. */

/** Milliseconds as m:ss (minutes not padded beyond two digits, hours folded into minutes). */
export function mmss(ms: number): string {
  const total = Math.max(0, Math.floor(ms / 1000));
  const m = Math.floor(total / 60);
  const s = total % 60;
  return `${String(m).padStart(2, '0')}:${String(s).padStart(2, '0')}`;
}

export interface Citation {
  startMs: number;
  speaker: string | null;
  recordingId?: string;
}

/** An Ask answer for a person: the answer, then one line per citation `[n] mm:ss speaker`, then the charge. */
export function answerText(
  a: { answer: string; citations: Citation[]; minutes: number; refused: boolean },
  names: Map<string, string> = new Map(),
): string {
  const lines = [a.answer, ''];
  a.citations.forEach((c, i) => {
    const who =
      c.speaker === null
        ? 'unknown speaker'
        : names.get(c.speaker)
          ? `${names.get(c.speaker)} (${c.speaker})`
          : c.speaker;
    lines.push(`[${i + 1}] ${mmss(c.startMs)} ${who}${c.recordingId ? ` in ${c.recordingId}` : ''}`);
  });
  lines.push(`${a.refused ? 'refused; ' : ''}charged ${a.minutes} min`);
  return lines.join('\n');
}
