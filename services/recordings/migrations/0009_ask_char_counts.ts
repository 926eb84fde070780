import type { Kysely, Migration } from 'kysely';

/**
 * What an Ask is priced by, kept beside the documents it counts: a transcript's characters as
 * read (`read_chars`, the length of transcriptAsText: turns with the speakers' given names) and a
 * digest's (`text_chars`, the length of digestAsText). Every write of a transcript (its turns, its
 * speakers' names) or a digest sets them in the same statement, so a quote reads two integers
 * instead of the documents.
 *
 * Rows written before stay null ("not counted yet"): the quote counts them from the documents
 * once and stores the count. Counting here would put the text rules (in app code, which
 * migrations never import) a second time in SQL, and rewrite every row during a deploy.
 */
export const askCharCounts: Migration = {
  async up(db: Kysely<any>) {
    await db.schema.alterTable('transcript').addColumn('read_chars', 'integer').execute();
    await db.schema.alterTable('digest').addColumn('text_chars', 'integer').execute();
  },
  async down(db: Kysely<any>) {
    await db.schema.alterTable('digest').dropColumn('text_chars').execute();
    await db.schema.alterTable('transcript').dropColumn('read_chars').execute();
  },
};
