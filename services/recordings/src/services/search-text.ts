import type { Transaction } from 'kysely';
import { normalizeForSearch, searchTokens } from '@mm/text';
import type { Database } from '../db/schema';

/** The plain text of digest sections, in reading order. */
export function digestText(sections: unknown): string {
  const out: string[] = [];
  for (const s of (sections ?? []) as { title?: string; text?: string; items?: (string | { text: string })[] }[]) {
    if (s.text) out.push(s.text);
    for (const it of s.items ?? []) out.push(typeof it === 'string' ? it : it.text);
  }
  return out.join('\n');
}

/**
 * Rewrites the text search reads for one meeting, inside the transaction that changed its title,
 * transcript or digest: the distinct tokens of each transcript turn, the title and the digest,
 * one line per part (searchTokens), which match every query word exactly as the whole text
 * would, at a fraction of the bytes each search reads; the line of a word tells the snippet's turn.
 */
export async function refreshSearchText(trx: Transaction<Database>, recordingId: string): Promise<void> {
  const r = await trx.selectFrom('recording').select(['title']).where('id', '=', recordingId).executeTakeFirst();
  if (!r) return;
  const t = await trx.selectFrom('transcript').select('segments').where('recordingId', '=', recordingId).executeTakeFirst();
  const d = await trx.selectFrom('digest').select(['title', 'sections']).where('recordingId', '=', recordingId).executeTakeFirst();
  const turns = ((t?.segments ?? []) as { text: string }[]).map((s) => s.text);
  const parts = [...turns, r.title ?? d?.title ?? '', digestText(d?.sections)].map(normalizeForSearch);
  await trx.updateTable('recording').set({ searchText: searchTokens(parts), searchTurns: turns.length }).where('id', '=', recordingId).execute();
}

