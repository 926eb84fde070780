import { MmApiError, quoteCitation, type Bundle, type Citation, type MeetingMemory } from '@mm/sdk';
import { moment, momentFound, partMarkdown, selectedTurns, type Selection } from '../domain/bundle-view';
import { ToolInputError } from './tool-input-error';

export interface ToolResult {
  [key: string]: unknown;
  content: (
    | { type: 'text'; text: string }
    | { type: 'resource_link'; uri: string; name: string; description?: string; mimeType?: string }
  )[];
  structuredContent?: Record<string, unknown>;
  isError?: boolean;
}

/** A result whose text is the structured value as JSON (for clients that read only text). */
export function json(value: unknown): ToolResult {
  return {
    content: [{ type: 'text', text: JSON.stringify(value) }],
    structuredContent: value as Record<string, unknown>,
  };
}

export const bundleUri = (id: string) => `mm://recordings/${encodeURIComponent(id)}/bundle.md`;

/**
 * getRecordingBundle for a model: Markdown by default (the text is the document, said once; the
 * structured part names what it is), narrowed to the digest, or to the transcript between two
 * moments or of one speaker; `format: json` answers the whole structure instead.
 */
export async function readBundle(client: MeetingMemory, args: Record<string, unknown>): Promise<ToolResult> {
  const id = String(args.id);
  const sel = args as Selection;
  const part = sel.part ?? (sel.from || sel.to || sel.speaker ? 'transcript' : 'all');
  if (args.format === 'json') {
    // The whole structure: a narrowing asked beside it would be silently dropped.
    const narrowing = (['part', 'from', 'to', 'speaker'] as const).filter((k) => sel[k] !== undefined);
    if (narrowing.length)
      throw new ToolInputError(`${narrowing.join(', ')} narrow the Markdown; format json answers the whole bundle`);
    const bundle = await client.bundle(id);
    return {
      content: [{ type: 'text', text: JSON.stringify(bundle) }],
      structuredContent: { id, format: 'json', bundle },
    };
  }
  if (part === 'all') {
    const markdown = await client.bundleMarkdown(id);
    const title = /^# (.*)$/m.exec(markdown)?.[1] ?? '';
    return { content: [{ type: 'text', text: markdown }], structuredContent: { id, format: 'markdown', part, title } };
  }
  const bundle = await client.bundle(id);
  const turns = selectedTurns(bundle, sel);
  if ('problem' in turns) throw new ToolInputError(turns.problem);
  return {
    content: [{ type: 'text', text: partMarkdown(bundle, { ...sel, part }, turns) }],
    structuredContent: { id, format: 'markdown', part, title: bundle.recording.displayTitle },
  };
}

/**
 * The bundles of these meetings, read at once, for what the tools add from them (quotes, names,
 * moments); a meeting the token cannot read (no recordings:read, another's) is simply absent.
 */
async function bundlesOf(client: MeetingMemory, ids: string[]): Promise<Map<string, Bundle>> {
  const read = await Promise.all(
    [...new Set(ids)].map(async (id) => {
      try {
        return [id, await client.bundle(id)] as const;
      } catch (err) {
        if (err instanceof MmApiError && err.status < 500) return null;
        throw err;
      }
    }),
  );
  return new Map(read.filter((r): r is readonly [string, Bundle] => r !== null));
}

/** An Ask answer whose citations carry the quoted words, start and end, and the speaker's name. */
export async function withQuotes(
  client: MeetingMemory,
  meetingId: string | undefined,
  answer: { citations: Citation[] } & Record<string, unknown>,
): Promise<ToolResult> {
  const ids = answer.citations.map((c) => c.recordingId ?? meetingId!).filter(Boolean);
  const bundles = await bundlesOf(client, ids);
  const citations = answer.citations.map((c) => quoteCitation(c, bundles.get(c.recordingId ?? meetingId!)));
  const value = { ...answer, citations };
  const sources = citations.map(
    (c, i) =>
      `[${i + 1}] ${c.at}${c.speakerName ? ` ${c.speakerName}` : ''}${c.recordingId ? ` in ${c.recordingId}` : ''}` +
      `${c.quote ? `: "${c.quote}"` : ''}`,
  );
  const text = [
    String(answer.answer),
    ...(sources.length ? ['', ...sources] : []),
    '',
    `Charged ${answer.minutes} min.`,
  ];
  return { content: [{ type: 'text', text: text.join('\n') }], structuredContent: value };
}

interface SearchItem {
  id: string;
  displayTitle: string;
  recordedAt: string;
  snippet?: string | null;
}

/** Search hits as resource links to their bundles, each with the moment its words are first said. */
export async function searchLinks(
  client: MeetingMemory,
  q: string,
  page: { items: SearchItem[]; nextCursor?: string | null } & Record<string, unknown>,
): Promise<ToolResult> {
  const bundles = await bundlesOf(
    client,
    page.items.filter((i) => i.snippet).map((i) => i.id),
  );
  const items = page.items.map((i) => {
    const b = bundles.get(i.id);
    const turn = b ? momentFound(b, q) : undefined;
    return turn ? { ...i, startMs: turn.startMs, at: moment(turn.startMs) } : i;
  });
  const content: ToolResult['content'] = items.map((i) => ({
    type: 'resource_link',
    uri: bundleUri(i.id),
    name: i.displayTitle,
    mimeType: 'text/markdown',
    description: [i.recordedAt, 'at' in i ? `at ${i.at}` : '', i.snippet ?? ''].filter(Boolean).join(' · '),
  }));
  const more = page.nextCursor ? ` More: cursor ${page.nextCursor}.` : '';
  content.unshift({ type: 'text', text: `${items.length} meeting(s) found.${more}` });
  return { content, structuredContent: { ...page, items } };
}
