import type { DigestCreated } from '@mm/contract';
import { newId } from '@mm/http';
import type { RecordingRow } from '../db/schema';
import { displayTitles } from './titles';

/** The digestCreated fact of a meeting made READY the first time (sent through the outbox). */
export function digestCreatedFact(
  r: RecordingRow,
  digest: { title: string | null; language: string; sections: unknown[] },
  speakers: { label: string; name?: string | null }[],
): DigestCreated {
  const titles = displayTitles({
    title: r.title,
    digestTitle: digest.title,
    digestLanguage: digest.language,
    recordedAt: r.recordedAt,
    series:
      r.seriesId && r.seriesName
        ? { name: r.seriesName, titleStyle: r.seriesTitleStyle, dateCalendar: r.seriesDateCalendar }
        : null,
  });
  return {
    id: newId('evt'),
    version: 1,
    recordingId: r.id,
    accountId: r.accountId,
    title: titles.title,
    displayTitle: titles.displayTitle,
    kind: r.kind,
    language: digest.language,
    sections: digest.sections as DigestCreated['sections'],
    speakers: speakers.map((s) => ({ label: s.label, name: s.name ?? null })),
    recordedAt: r.recordedAt.toISOString(),
    occurredAt: new Date().toISOString(),
  };
}
