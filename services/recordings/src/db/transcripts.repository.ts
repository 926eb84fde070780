import { sql } from 'kysely';
import type { TranscriptDoc, TranscriptSegment } from '@mm/contract';
import type { Kysely } from 'kysely';
import { prepared } from '@mm/db';
import type { Db } from './recordings.repository';
import type { Database } from './schema';

/** A meeting's transcript (the bundle). */
const TRANSCRIPT = prepared((db: Kysely<Database>, recordingId: string) =>
  db.selectFrom('transcript').selectAll().where('recordingId', '=', recordingId),
);

export type Speaker = TranscriptDoc['speakers'][number];

/** A meeting's transcript as the service works with it. */
export interface Transcript {
  recordingId: string;
  language: string;
  speakers: Speaker[];
  segments: TranscriptSegment[];
  stats: Record<string, unknown>;
  /** Raised by every write: a transcript prepared from version n is stale once it is n + 1. */
  version: number;
}

export const toTranscript = (row: {
  recordingId: string;
  language: string;
  speakers: unknown;
  segments: unknown;
  stats: unknown;
  version: number;
}): Transcript => ({
  recordingId: row.recordingId,
  language: row.language,
  speakers: row.speakers as Speaker[],
  segments: row.segments as TranscriptSegment[],
  stats: row.stats as Record<string, unknown>,
  version: row.version,
});

/** The transcripts: one row per meeting that got past transcription. */
export class TranscriptRepository {
  async get(db: Db, recordingId: string): Promise<Transcript | undefined> {
    const row = await TRANSCRIPT.first(db, recordingId);
    return row && toTranscript(row);
  }

  /** Only the turns' texts of some meetings (a search's snippets). */
  async turns(db: Db, recordingIds: string[]): Promise<Map<string, { text: string; startMs?: number }[]>> {
    if (recordingIds.length === 0) return new Map();
    const rows = await db
      .selectFrom('transcript')
      .select(['recordingId', 'segments'])
      .where('recordingId', 'in', recordingIds)
      .execute();
    return new Map(rows.map((t) => [t.recordingId, t.segments as { text: string; startMs?: number }[]]));
  }

  /** Writes a meeting's transcript whole (the pipeline's, or a silent meeting's empty one). */
  async replace(
    db: Db,
    recordingId: string,
    doc: Pick<Transcript, 'language' | 'speakers' | 'segments' | 'stats'>,
  ): Promise<void> {
    const values = {
      language: doc.language,
      speakers: JSON.stringify(doc.speakers),
      segments: JSON.stringify(doc.segments),
      stats: JSON.stringify(doc.stats),
    };
    await db
      .insertInto('transcript')
      .values({ recordingId, ...values })
      .onConflict((oc) => oc.column('recordingId').doUpdateSet({ ...values, version: sql`transcript.version + 1` }))
      .execute();
  }

  async setSpeakers(db: Db, recordingId: string, speakers: Speaker[]): Promise<void> {
    await db
      .updateTable('transcript')
      .set({ speakers: JSON.stringify(speakers), version: sql`version + 1` })
      .where('recordingId', '=', recordingId)
      .execute();
  }

  async setSegments(db: Db, recordingId: string, segments: TranscriptSegment[]): Promise<void> {
    await db
      .updateTable('transcript')
      .set({ segments: JSON.stringify(segments), version: sql`version + 1` })
      .where('recordingId', '=', recordingId)
      .execute();
  }

  /**
   * The names an account already gave speakers in its other meetings (the naming sheet's
   * suggestions): from its latest `meetings` meetings not deleted, most used first, at most `max`.
   */
  async speakerNames(db: Db, accountId: string, exceptId: string, meetings = 200, max = 100): Promise<string[]> {
    const rows = await sql<{ name: string }>`
      select s.name, count(*) as uses
      from (
        select t.speakers
        from recording r
        join transcript t on t.recording_id = r.id
        where r.account_id = ${accountId} and r.deleted_at is null and r.id <> ${exceptId}
        order by r.created_at desc
        limit ${meetings}
      ) m
      cross join lateral jsonb_to_recordset(m.speakers) as s(label text, name text)
      where s.name is not null and s.name <> ''
      group by s.name
      order by uses desc, s.name
      limit ${max}
    `.execute(db);
    return rows.rows.map((r) => r.name);
  }
}
