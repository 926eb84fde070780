import { sql, type Kysely, type Migration } from 'kysely';

/**
 * The app's setting that deletes a meeting's audio once its digest is ready (the contract keeps
 * it to the app), off for an account without a row. A table of its own, not a column of
 * `setting`: the previous version reads that table with a named prepared `select *`, which a new
 * column breaks ("cached plan must not change result type") while it still serves.
 */
export const deleteAudioSetting: Migration = {
  async up(db: Kysely<any>) {
    await sql`
      create table if not exists account.app_setting (
        account_id text primary key,
        delete_audio_after_digest boolean not null default false,
        updated_at timestamptz not null default now()
      )`.execute(db);
  },
  async down(db: Kysely<any>) {
    await sql`drop table if exists account.app_setting`.execute(db);
  },
};
