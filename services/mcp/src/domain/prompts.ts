/**
 * Prompts for what agents are most often asked about meetings: each says which tools to use and
 * how to cite, so the answer comes from the meetings and not from the model's guess. Pure.
 */

interface PromptDef {
  name: string;
  description: string;
  arguments: { name: string; description: string; required: boolean }[];
  text: (args: Record<string, string>) => string;
}

const SERIES = { name: 'seriesId', description: 'Only this series (optional).', required: false };
const inSeries = (a: Record<string, string>) => (a.seriesId ? ` in series ${a.seriesId}` : '');

const PROMPTS: PromptDef[] = [
  {
    name: 'decisions-this-week',
    description: 'What was decided in the meetings of the last seven days.',
    arguments: [SERIES],
    text: (a) =>
      `List what was decided in my meetings of the last seven days${inSeries(a)}. Use listReadyRecordings` +
      `${a.seriesId ? ` with seriesId ${a.seriesId}` : ''} and keep the meetings recorded since ` +
      `${new Date(Date.now() - 7 * 86_400_000).toISOString().slice(0, 10)}; read each with getRecordingBundle ` +
      'part "digest". Group the decisions by meeting, newest first, each with the meeting title and date. ' +
      'Say plainly when there were none.',
  },
  {
    name: 'open-action-items',
    description: "A person's open action items across recent meetings.",
    arguments: [{ name: 'person', description: 'Whose action items.', required: true }, SERIES],
    text: (a) =>
      `Find the open action items of ${a.person}${inSeries(a)}. Use searchRecordings ` +
      `with q "${a.person}", then getRecordingBundle part "digest" for each meeting found; keep the action ` +
      'items whose owner is that person. List each with what is to be done, the meeting and its date.',
  },
  {
    name: 'catch-up-on-meeting',
    description: 'A short catch-up on one meeting with quotes.',
    arguments: [{ name: 'id', description: 'The meeting id.', required: true }],
    text: (a) =>
      `Catch me up on meeting ${a.id}. Read it with getRecordingBundle part "digest", then quote the most ` +
      'important moments from part "transcript" with their time and speaker. Keep it under 200 words.',
  },
];

/** The prompts as prompts/list shows them. */
export function promptsFor() {
  return PROMPTS.map(({ name, description, arguments: args }) => ({ name, description, arguments: args }));
}

/** A prompt's messages, or null for an unknown prompt. */
export function promptMessages(name: string, args: Record<string, string>) {
  const p = PROMPTS.find((q) => q.name === name);
  if (!p) return null;
  return {
    description: p.description,
    messages: [{ role: 'user' as const, content: { type: 'text' as const, text: p.text(args) } }],
  };
}

/**
 * The required arguments of a prompt that `args` leaves out or blank: prompts/get answers them as
 * invalid params instead of a prompt that names no one (`meeting undefined`, a search for "").
 */
export function missingPromptArguments(name: string, args: Record<string, string>): string[] {
  const p = PROMPTS.find((q) => q.name === name);
  return (p?.arguments ?? []).filter((a) => a.required && !(args[a.name] ?? '').trim()).map((a) => a.name);
}
