import { sql, type Kysely, type Migration } from 'kysely';

/**
 * The search text keeps only distinct tokens (libs/text searchTokens): the write path stores one
 * line per transcript turn, title and digest, each with the tokens no earlier part had, and
 * `search_turns`, how many lines are turns (so a word's line names the snippet's turn). A query
 * word holds only letters and digits, so it matches the tokens exactly when it matched the whole
 * text, and an hour of talk repeats its words: each search reads a fraction of the bytes.
 *
 * Existing rows cannot be split by turn here (normalization lives in app code): their tokens go
 * on one line, in order of first appearance (searchTokens of the one whole text, frozen here in
 * SQL), with search_turns null, which makes search read their transcript for the snippet as
 * before. The trigram index is dropped while the rows are rewritten (one build instead of an
 * update per row) and rebuilt; its trigrams are the same, as pg_trgm takes them word by word.
 */
const TOKENS = sql`coalesce((select string_agg(w, ' ' order by o) from (
    select w, min(o) as o from unnest(string_to_array(translate(search_text, E'\\t\\n\\r', '   '), ' ')) with ordinality as x(w, o)
    where w <> '' group by w) as t), '')`;

export const searchTextTokens: Migration = {
  async up(db: Kysely<any>) {
    await db.schema.alterTable('recording').addColumn('search_turns', 'integer').execute();
    await sql`drop index if exists recording_search_trgm`.execute(db);
    await sql`update recording set search_text = ${TOKENS} where search_text is not null`.execute(db);
    const ext = await sql<{ nspname: string }>`select n.nspname from pg_extension e join pg_namespace n on n.oid = e.extnamespace where e.extname = 'pg_trgm'`.execute(db);
    const ops = sql`${sql.id(ext.rows[0].nspname)}.gin_trgm_ops`;
    await sql`create index recording_search_trgm on recording using gin (account_id, search_text ${ops}) where status = 'READY' and deleted_at is null`.execute(db);
  },
  // The whole texts cannot be rebuilt here (normalization lives in app code), and need not be: the
  // tokens match every query as the whole text did. The column goes; the tokens stay.
  async down(db: Kysely<any>) {
    await db.schema.alterTable('recording').dropColumn('search_turns').execute();
  },
};
