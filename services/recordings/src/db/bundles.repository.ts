import { sql, type Kysely } from 'kysely';
import { keyArray, preparedByKey } from '@mm/db';
import { toDigest, type Digest } from './digests.repository';
import type { Db } from './recordings.repository';
import { ROW_COLUMNS, type Database, type RecordingRow } from './schema';
import { toTranscript, type Transcript } from './transcripts.repository';

/**
 * A meeting's row with its transcript and digest, joined in one statement: a bundle is one round
 * trip instead of the row, then the two documents. A meeting the caller may not read is still one
 * read, of which nothing is answered. The bundle reads of one turn of the event loop share it.
 */
const ROW_WITH_DOCUMENTS = preparedByKey(
  (db: Kysely<Database>, ids: string[]) =>
    db
      .selectFrom('recording as r')
      .leftJoin('transcript as t', 't.recordingId', 'r.id')
      .leftJoin('digest as d', 'd.recordingId', 'r.id')
      .select([
        ...ROW_COLUMNS.map((c) => `r.${c}` as const),
        't.recordingId as tRecordingId',
        't.language as tLanguage',
        't.speakers as tSpeakers',
        't.segments as tSegments',
        't.stats as tStats',
        't.version as tVersion',
        'd.recordingId as dRecordingId',
        'd.type as dType',
        'd.language as dLanguage',
        'd.title as dTitle',
        'd.sections as dSections',
        'd.markdown as dMarkdown',
      ])
      .where(sql<boolean>`r.id = any(${keyArray(ids)})`),
  (row) => row.id,
);

/** What a bundle is made of. */
export interface BundleSources {
  row: RecordingRow;
  transcript: Transcript | undefined;
  digest: Digest | undefined;
}

/** The bundle's reads. */
export class BundleRepository {
  async sources(db: Db, id: string): Promise<BundleSources | undefined> {
    const found = await ROW_WITH_DOCUMENTS.first(db, id);
    if (!found) return undefined;
    const { tRecordingId, tLanguage, tSpeakers, tSegments, tStats, tVersion, ...rest } = found;
    const { dRecordingId, dType, dLanguage, dTitle, dSections, dMarkdown, ...row } = rest;
    return {
      row,
      transcript:
        tRecordingId === null || tLanguage === null || tVersion === null
          ? undefined
          : toTranscript({
              recordingId: tRecordingId,
              language: tLanguage,
              speakers: tSpeakers,
              segments: tSegments,
              stats: tStats,
              version: tVersion,
            }),
      digest:
        dRecordingId === null || dType === null || dLanguage === null || dMarkdown === null
          ? undefined
          : toDigest({
              recordingId: dRecordingId,
              type: dType,
              language: dLanguage,
              title: dTitle,
              sections: dSections,
              markdown: dMarkdown,
            }),
    };
  }
}
