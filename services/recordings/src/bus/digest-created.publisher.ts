import type { Transaction } from 'kysely';
import { enqueue } from '@mm/bus';
import { BUS, type DigestCreated } from '@mm/contract';
import { newId } from '@mm/http';
import type { Database, RecordingRow } from '../db/schema';
import { displayTitles } from '../domain/titles';

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
  const fact: DigestCreated = {
    id: newId('evt'),
    version: 1,
    recordingId: r.id,
    accountId: r.accountId,
    title: titles.title,
    displayTitle: titles.displayTitle,
    kind: r.kind,
    language: digest.language,
    sections: digest.sections as DigestCreated['sections'],
    speakers: ((t?.speakers ?? []) as { label: string; name: string | null }[]).map((s) => ({ label: s.label, name: s.name ?? null })),
    recordedAt: r.recordedAt.toISOString(),
    occurredAt: new Date().toISOString(),
  };
  await enqueue(trx, BUS.digestCreated, fact.id, fact);
}
