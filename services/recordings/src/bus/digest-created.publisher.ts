import type { Kysely, Transaction } from 'kysely';
import { enqueue } from '@mm/bus';
import { newId } from '@mm/http';
import type { Database, RecordingRow } from '../db/schema';
import { displayTitles } from '../domain/titles';

export const DIGEST_CREATED_SUBJECT = 'recordings.digest.created';

/**
 * `recordings.digest.created`: a meeting's digest was made for the first time (never for a
 * regeneration). Unlike the public events it carries content (sections, speaker names), so it
 * stays internal: the events service does not consume it; the account service learns memory
 * notes from it and sends the summary email.
 */
export interface DigestCreatedFact {
  id: string;
  version: 1;
  recordingId: string;
  accountId: string;
  /** The meeting's own title, else the digest's (the contract's `title`). */
  title: string | null;
  /** The title as the app shows it (series name and date in a SESSION series). */
  displayTitle: string;
  kind: string;
  language: string;
  sections: unknown[];
  /** Every voice of the transcript, with the name given it or null. */
  speakers: { label: string; name: string | null }[];
  recordedAt: string;
  occurredAt: string;
}

/** Writes the fact to the outbox in the caller's transaction (the one that makes the meeting READY). */
export async function enqueueDigestCreated(
  trx: Transaction<Database>,
  r: RecordingRow,
  digest: { title: string | null; language: string; sections: unknown[] },
): Promise<void> {
  const t = await trx.selectFrom('transcript').select('speakers').where('recordingId', '=', r.id).executeTakeFirst();
  const titles = displayTitles({
    title: r.title,
    digestTitle: digest.title,
    digestLanguage: digest.language,
    recordedAt: r.recordedAt,
    series: r.seriesId && r.seriesName ? { name: r.seriesName, titleStyle: r.seriesTitleStyle, dateCalendar: r.seriesDateCalendar } : null,
  });
  const fact: DigestCreatedFact = {
    id: newId('evt'),
    version: 1,
    recordingId: r.id,
    accountId: r.accountId,
    title: titles.title,
    displayTitle: titles.displayTitle,
    kind: r.kind,
    language: digest.language,
    sections: digest.sections,
    speakers: ((t?.speakers ?? []) as { label: string; name: string | null }[]).map((s) => ({ label: s.label, name: s.name ?? null })),
    recordedAt: r.recordedAt.toISOString(),
    occurredAt: new Date().toISOString(),
  };
  await enqueue(trx as unknown as Kysely<any>, fact.id, DIGEST_CREATED_SUBJECT, fact);
}
