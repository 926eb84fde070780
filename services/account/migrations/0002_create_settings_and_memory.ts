import { sql, type Kysely, type Migration } from 'kysely';

export const createSettingsAndMemory: Migration = {
  async up(db: Kysely<any>) {
    // One row per account, written on the first change; no row means every default.
    await db.schema
      .createTable('setting')
      .addColumn('account_id', 'text', (c) => c.primaryKey())
      .addColumn('speaker_naming_mode', 'text', (c) =>
        c.notNull().defaultTo('AUTO').check(sql`speaker_naming_mode in ('AUTO', 'FORCE_ON', 'FORCE_OFF')`),
      )
      .addColumn('memory_learning_enabled', 'boolean', (c) => c.notNull().defaultTo(true))
      .addColumn('summary_email_enabled', 'boolean', (c) => c.notNull().defaultTo(false))
      .addColumn('ui_locale', 'text', (c) => c.notNull().defaultTo('en').check(sql`ui_locale in ('en', 'fa')`))
      .addColumn('keyterms', sql`text[]`, (c) => c.notNull().defaultTo(sql`'{}'::text[]`))
      .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
      .execute();
    await db.schema
      .createTable('memory_note')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('account_id', 'text', (c) => c.notNull())
      .addColumn('category', 'text', (c) => c.notNull().check(sql`category in ('ABOUT_YOU', 'PEOPLE', 'TERMS')`))
      .addColumn('text', 'text', (c) => c.notNull())
      // The text as duplicates are judged (whitespace collapsed, case ignored); unique per category.
      .addColumn('text_key', 'text', (c) => c.notNull())
      .addColumn('meeting_count', 'integer', (c) => c.notNull().defaultTo(0).check(sql`meeting_count >= 0`))
      .addColumn('pinned', 'boolean', (c) => c.notNull().defaultTo(false))
      .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
      .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
      .execute();
    await db.schema
      .createIndex('memory_note_text_key')
      .unique()
      .on('memory_note')
      .columns(['account_id', 'category', 'text_key'])
      .execute();
    // Meetings already learned from: a redelivered learn request changes nothing.
    await db.schema
      .createTable('memory_learning')
      .addColumn('account_id', 'text', (c) => c.notNull())
      .addColumn('meeting_id', 'text', (c) => c.notNull())
      .addColumn('applied', 'boolean', (c) => c.notNull())
      .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
      .addPrimaryKeyConstraint('memory_learning_pk', ['account_id', 'meeting_id'])
      .execute();
  },
  async down(db: Kysely<any>) {
    await db.schema.dropTable('memory_learning').execute();
    await db.schema.dropTable('memory_note').execute();
    await db.schema.dropTable('setting').execute();
  },
};
