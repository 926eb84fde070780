import { digestAsText, type DigestDoc } from '@mm/contract';
import { sql, type Kysely } from 'kysely';
import { keyArray, prepared } from '@mm/db';
import type { Db } from './recordings.repository';
import type { Database } from './schema';
import { storedCounts } from './stored-counts';

/** A meeting's digest (the bundle, Ask), and the heads of some meetings' digests (status, lists). */
const DIGEST = prepared((db: Kysely<Database>, recordingId: string) =>
  db.selectFrom('digest').selectAll().where('recordingId', '=', recordingId),
);
const HEADS = prepared((db: Kysely<Database>, ids: string[]) =>
  db
    .selectFrom('digest')
    .select(['recordingId', 'title', 'language'])
    .where(sql<boolean>`recording_id = any(${keyArray(ids)})`),
);

/** Some meetings' digests with their counts, and what counting them needs (those not counted yet). */
const TO_COUNT = prepared((db: Kysely<Database>, ids: string[]) =>
  db
    .selectFrom('digest')
    .select(['recordingId', 'textChars', 'sections'])
    .where(sql<boolean>`recording_id = any(${ids})`),
);

/** The digest's characters as an Ask reads it (a series Ask's price): stored with every write of it. */
export const textCharsOf = (sections: readonly Record<string, unknown>[]): number => digestAsText(sections).length;

/** A digest section as the pipeline writes it: its text, or its items (an action item names its owner). */
export type DigestSection = {
  kind: string;
  title: string;
  text?: string;
  items?: (string | { text: string; owner: string | null })[];
} & Record<string, unknown>;

/** A meeting's digest as the service works with it. */
export interface Digest {
  recordingId: string;
  type: string;
  language: string;
  title: string | null;
  sections: DigestSection[];
  markdown: string;
}

export const toDigest = (row: {
  recordingId: string;
  type: string;
  language: string;
  title: string | null;
  sections: unknown;
  markdown: string;
}): Digest => ({
  recordingId: row.recordingId,
  type: row.type,
  language: row.language,
  title: row.title,
  sections: row.sections as DigestSection[],
  markdown: row.markdown,
});

/** The digests: one row per meeting that got one (a regeneration replaces it). */
export class DigestRepository {
  async get(db: Db, recordingId: string): Promise<Digest | undefined> {
    const row = await DIGEST.first(db, recordingId);
    return row && toDigest(row);
  }

  /** Title and language of some meetings' digests (list items and titles). */
  async heads(db: Db, ids: string[]): Promise<Map<string, { title: string | null; language: string }>> {
    if (ids.length === 0) return new Map();
    const rows = await HEADS.all(db, ids);
    return new Map(rows.map((r) => [r.recordingId, { title: r.title, language: r.language }]));
  }

  async replace(
    db: Db,
    recordingId: string,
    d: Pick<DigestDoc, 'type' | 'language' | 'title' | 'sections' | 'markdown'>,
  ): Promise<void> {
    await db.deleteFrom('digest').where('recordingId', '=', recordingId).execute();
    await db
      .insertInto('digest')
      .values({
        recordingId,
        type: d.type,
        language: d.language,
        title: d.title,
        sections: JSON.stringify(d.sections),
        markdown: d.markdown,
        textChars: textCharsOf(d.sections),
      })
      .execute();
  }

  /**
   * The counts of some meetings' digests (absent ones are not in the map); one written before the
   * counts were kept is counted now and its count stored, unless a rewrite replaced it meanwhile.
   */
  async counts(db: Db, ids: string[]): Promise<Map<string, number>> {
    return storedCounts(
      await TO_COUNT.all(db, ids),
      (d) => d.textChars,
      (d) => textCharsOf(d.sections as Record<string, unknown>[]),
      (recordingId, n) =>
        db
          .updateTable('digest')
          .set({ textChars: n })
          .where('recordingId', '=', recordingId)
          .where('textChars', 'is', null)
          .execute(),
    );
  }
}
