/**
 * Every run of whitespace, line breaks included, becomes one space: names and titles stay on one
 * line. NEL (U+0085) is a line break JavaScript's `\s` leaves out.
 */
export const oneLine = (s: string) => s.replace(/[\s\u0085]+/g, ' ').trim();

export interface MarkdownInput {
  displayTitle: string;
  subtitle: string | null;
  recordedAt: Date;
  durationSeconds: number | null;
  seriesName: string | null;
  speakers: { label: string; name: string | null }[];
  digestMarkdownSections: string;
  segments: { speaker: string; startMs: number; text: string }[];
}

function clock(ms: number): string {
  const s = Math.floor(ms / 1000);
  const h = Math.floor(s / 3600);
  const mm = String(Math.floor((s % 3600) / 60)).padStart(2, '0');
  const ss = String(s % 60).padStart(2, '0');
  return h > 0 ? `${h}:${mm}:${ss}` : `${mm}:${ss}`;
}

/** The whole meeting as one Markdown document, in the contract's order. */
export function bundleMarkdown(i: MarkdownInput): string {
  const nameOf = new Map(i.speakers.map((s) => [s.label, oneLine(s.name ?? s.label)]));
  const lines: string[] = [`# ${oneLine(i.displayTitle)}`, ''];
  if (i.subtitle) lines.push(`_${oneLine(i.subtitle)}_`, '');
  lines.push('## Details', '');
  lines.push(`- Time: ${i.recordedAt.toISOString()}`);
  if (i.durationSeconds !== null) lines.push(`- Length: ${clock(i.durationSeconds * 1000)}`);
  if (i.seriesName) lines.push(`- Series: ${oneLine(i.seriesName)}`);
  lines.push(`- Speakers: ${i.speakers.map((s) => nameOf.get(s.label)).join(', ') || 'none'}`, '');
  lines.push(i.digestMarkdownSections.trim(), '');
  lines.push('## Transcript', '');
  for (const s of i.segments)
    lines.push(`**${nameOf.get(s.speaker) ?? oneLine(s.speaker)}** [${clock(s.startMs)}]: ${s.text}`, '');
  return lines.join('\n').trimEnd() + '\n';
}

/** Markdown of digest sections (each `## title`, then text or a list). */
export function sectionsMarkdown(
  sections: {
    kind: string;
    title: string;
    text?: string;
    items?: (string | { text: string; owner: string | null })[];
  }[],
): string {
  const out: string[] = [];
  for (const s of sections) {
    out.push(`## ${oneLine(s.title)}`, '');
    if (s.text !== undefined) out.push(s.text || '—', '');
    if (s.items) {
      if (s.items.length === 0) out.push('- —');
      for (const it of s.items)
        out.push(typeof it === 'string' ? `- ${it}` : `- ${it.text}${it.owner ? ` (${oneLine(it.owner)})` : ''}`);
      out.push('');
    }
  }
  return out.join('\n');
}

/** The transcript alone as Markdown (the bundle's transcript.markdown). */
export function transcriptMarkdown(
  speakers: { label: string; name: string | null }[],
  segments: { speaker: string; startMs: number; text: string }[],
): string {
  const nameOf = new Map(speakers.map((s) => [s.label, oneLine(s.name ?? s.label)]));
  return (
    segments.map((s) => `**${nameOf.get(s.speaker) ?? s.speaker}** [${clock(s.startMs)}]: ${s.text}`).join('\n\n') +
    '\n'
  );
}
