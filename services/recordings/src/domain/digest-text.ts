/** The plain text of digest sections, in reading order. */
export function digestText(sections: unknown): string {
  const out: string[] = [];
  for (const s of (sections ?? []) as { title?: string; text?: string; items?: (string | { text: string })[] }[]) {
    if (s.text) out.push(s.text);
    for (const it of s.items ?? []) out.push(typeof it === 'string' ? it : it.text);
  }
  return out.join('\n');
}
