import { sql, type Kysely, type Migration } from 'kysely';

export const createSeries: Migration = {
  async up(db: Kysely<any>) {
    // One row per owner: the lock that serializes creation, so the 50-series limit holds under races.
    await db.schema
      .createTable('series_owner')
      .addColumn('owner_id', 'text', (c) => c.primaryKey())
      .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
      .execute();
    await db.schema
      .createTable('series')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('owner_id', 'text', (c) => c.notNull().references('series_owner.owner_id'))
      .addColumn('name', 'text', (c) => c.notNull())
      // The name as uniqueness judges it (case ignored); unique per owner.
      .addColumn('name_key', 'text', (c) => c.notNull())
      .addColumn('default_kind', 'text', (c) =>
        c.notNull().check(sql`default_kind in ('MEETING', 'LECTURE', 'INTERVIEW', 'VOICE_MEMO', 'CALL')`),
      )
      .addColumn('default_output_language', 'text', (c) =>
        c.notNull().check(sql`default_output_language in ('MATCH', 'FA', 'EN')`),
      )
      .addColumn('title_style', 'text', (c) => c.notNull().check(sql`title_style in ('SESSION', 'TOPIC')`))
      .addColumn('date_calendar', 'text', (c) =>
        c.notNull().check(sql`date_calendar in ('AUTO', 'JALALI', 'GREGORIAN')`),
      )
      .addColumn('keyterms', sql`text[]`, (c) => c.notNull().defaultTo(sql`'{}'::text[]`))
      .addColumn('inherit_account_keyterms', 'boolean', (c) => c.notNull().defaultTo(true))
      // Fed later from the recordings service's facts; kept here so reads need no other service.
      .addColumn('meeting_count', 'integer', (c) => c.notNull().defaultTo(0).check(sql`meeting_count >= 0`))
      .addColumn('last_recorded_at', 'timestamptz')
      .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
      .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
      .execute();
    await db.schema
      .createIndex('series_owner_name_key')
      .unique()
      .on('series')
      .columns(['owner_id', 'name_key'])
      .execute();
    await db.schema
      .createTable('member')
      .addColumn('series_id', 'text', (c) => c.notNull().references('series.id').onDelete('cascade'))
      .addColumn('account_id', 'text', (c) => c.notNull())
      .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
      .addPrimaryKeyConstraint('member_pk', ['series_id', 'account_id'])
      .execute();
    await db.schema.createIndex('member_account').on('member').column('account_id').execute();
  },
  async down(db: Kysely<any>) {
    await db.schema.dropTable('member').execute();
    await db.schema.dropTable('series').execute();
    await db.schema.dropTable('series_owner').execute();
  },
};
