import { sql, type Kysely, type Migration } from 'kysely';

/**
 * Search at archive scale: a trigram index of the normalized search text, with the account, so a
 * word's `LIKE '%word%'` (the contract's match anywhere inside a longer word, Persian included:
 * the text and the query are normalized alike before they meet) reads only the meetings whose
 * text holds the word's trigrams, in the caller's account. Postgres rechecks every candidate with
 * the LIKE itself, so the index changes speed, never results (words under three letters still
 * match; they are served by the ordered index instead).
 */
export const searchTrigramIndex: Migration = {
  async up(db: Kysely<any>) {
    await sql`create extension if not exists pg_trgm`.execute(db);
    await sql`create extension if not exists btree_gin`.execute(db);
    // The extension may live in another schema (made earlier by someone else): name its operator class there.
    const ext = await sql<{
      nspname: string;
    }>`select n.nspname from pg_extension e join pg_namespace n on n.oid = e.extnamespace where e.extname = 'pg_trgm'`.execute(
      db,
    );
    const ops = sql`${sql.id(ext.rows[0].nspname)}.gin_trgm_ops`;
    await sql`create index recording_search_trgm on recording using gin (account_id, search_text ${ops}) where status = 'READY' and deleted_at is null`.execute(
      db,
    );
  },
  async down(db: Kysely<any>) {
    await sql`drop index recording_search_trgm`.execute(db);
  },
};
