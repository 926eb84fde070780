import { sql, type Kysely, type Migration } from 'kysely';

/**
 * Search normalization writes every heh form as ه since session 37 (libs/text search.ts): NFKD
 * turns ۀ into ە and its hamza, and ە, ہ and ھ were kept as they were, so a query for خانه missed
 * a title written خانۀ. Stored search text is rewritten the same way, one character for one,
 * only in the rows that hold one of the three (a handful). A row a replica of the last release
 * writes during the rollout keeps its old letters until its next rewrite (a rename, an edit).
 */
export const searchTextHeh: Migration = {
  async up(db: Kysely<any>) {
    await sql`update recording set search_text = translate(search_text, 'ەہھ', 'ههه') where search_text ~ '[ەہھ]'`.execute(
      db,
    );
  },
  // Nothing to undo: ه matched before as it does now.
  async down() {},
};
