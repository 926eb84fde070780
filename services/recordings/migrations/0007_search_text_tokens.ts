import type { Kysely, Migration } from 'kysely';

/**
 * From here the search text keeps only distinct tokens (libs/text searchTokens): one line per
 * transcript turn, title and digest, each with the tokens no earlier part had, and
 * `search_turns`, how many lines are turns (a word's line names the snippet's turn). A query word
 * holds only letters and digits, so it matches the tokens exactly as it matched the whole text.
 *
 * Rows written before keep their whole text with search_turns null: search matches them alike
 * and reads their transcript for the snippet as before, until the write path rewrites them
 * (refreshSearchText: a rename, a transcript edit). Rewriting them here would hold every READY
 * row in one transaction during a deploy, and normalization lives in app code, which migrations
 * never import.
 */
export const searchTextTokens: Migration = {
  async up(db: Kysely<any>) {
    await db.schema.alterTable('recording').addColumn('search_turns', 'integer').execute();
  },
  async down(db: Kysely<any>) {
    await db.schema.alterTable('recording').dropColumn('search_turns').execute();
  },
};
