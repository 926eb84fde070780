import { sql, type Kysely, type Migration } from 'kysely';

/**
 * A version of the whole access state, changed by triggers in the same transaction as any write
 * to account, token or flag (the admin API's or one made by hand in psql). A gateway reads this
 * one row to prove its token cache current against Postgres itself, instead of reloading every
 * cached token: the bound on a revocation whose Redis epoch change was lost (docs/decisions.md).
 * A row update, not a sequence: its new value is seen only once the change it stands for commits.
 */
export const addAccessVersion: Migration = {
  async up(db: Kysely<any>) {
    await sql`create table access_version (id smallint primary key check (id = 1), version bigint not null)`.execute(
      db,
    );
    await sql`insert into access_version (id, version) values (1, 1)`.execute(db);
    await sql`
      create function access_version_bump() returns trigger language plpgsql
      -- the service's schema, whatever the search path of the session that writes (psql by hand)
      set search_path from current as $$
      begin
        update access_version set version = version + 1 where id = 1;
        return null;
      end $$`.execute(db);
    for (const table of ['account', 'token', 'flag']) {
      await sql`
        create trigger ${sql.raw(`${table}_access_version`)}
        after insert or update or delete or truncate on ${sql.table(table)}
        for each statement execute function access_version_bump()`.execute(db);
    }
  },
  async down(db: Kysely<any>) {
    for (const table of ['account', 'token', 'flag']) {
      await sql`drop trigger ${sql.raw(`${table}_access_version`)} on ${sql.table(table)}`.execute(db);
    }
    await sql`drop function access_version_bump()`.execute(db);
    await sql`drop table access_version`.execute(db);
  },
};
