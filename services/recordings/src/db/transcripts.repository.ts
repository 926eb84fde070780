import { sql } from 'kysely';
import { transcriptAsText, type TranscriptDoc, type TranscriptSegment } from '@mm/contract';
import type { Kysely } from 'kysely';
import { prepared } from '@mm/db';
import type { Db } from './recordings.repository';
import type { Database } from './schema';
import { storedCounts } from './stored-counts';

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

/**
 * The transcript's characters as an Ask reads it (its price): every write stores it with the
 * turns and names it counts, so a quote reads the number and not the documents.
 */
export const readCharsOf = (t: Pick<Transcript, 'speakers' | 'segments'>): number => transcriptAsText(t).length;

/** Some meetings' transcripts with their counts, and what counting them needs (those not counted yet). */
const TO_COUNT = prepared((db: Kysely<Database>, ids: string[]) =>
  db
    .selectFrom('transcript')
    .select(['recordingId', 'readChars', 'speakers', 'segments'])
    .where(sql<boolean>`recording_id = any(${ids})`),
);

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
      readChars: readCharsOf(doc),
    };
    await db
      .insertInto('transcript')
      .values({ recordingId, ...values })
      .onConflict((oc) => oc.column('recordingId').doUpdateSet({ ...values, version: sql`transcript.version + 1` }))
      .execute();
  }

  /**
   * Writes the speakers (names) of `doc`; its segments must be the stored ones (read under the
   * meeting's lock, or of the version just checked): the count of the text as read is of both.
   */
  async setSpeakers(db: Db, recordingId: string, doc: Pick<Transcript, 'speakers' | 'segments'>): Promise<void> {
    await db
      .updateTable('transcript')
      .set({ speakers: JSON.stringify(doc.speakers), readChars: readCharsOf(doc), version: sql`version + 1` })
      .where('recordingId', '=', recordingId)
      .execute();
  }

  /** Writes the turns of `doc`; its speakers must be the stored ones (as setSpeakers' segments). */
  async setSegments(db: Db, recordingId: string, doc: Pick<Transcript, 'speakers' | 'segments'>): Promise<void> {
    await db
      .updateTable('transcript')
      .set({ segments: JSON.stringify(doc.segments), readChars: readCharsOf(doc), version: sql`version + 1` })
      .where('recordingId', '=', recordingId)
      .execute();
  }

  /**
   * The counts of some meetings' transcripts (absent ones are not in the map); one written before
   * the counts were kept is counted now and its count stored, unless a write counted it meanwhile.
   */
  async counts(db: Db, ids: string[]): Promise<Map<string, number>> {
    return storedCounts(
      await TO_COUNT.all(db, ids),
      (t) => t.readChars,
      (t) => readCharsOf({ speakers: t.speakers as Speaker[], segments: t.segments as TranscriptSegment[] }),
      (recordingId, n) =>
        db
          .updateTable('transcript')
          .set({ readChars: n })
          .where('recordingId', '=', recordingId)
          .where('readChars', 'is', null)
          .execute(),
    );
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
