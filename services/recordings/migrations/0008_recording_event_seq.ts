import { type Kysely, type Migration } from 'kysely';

/**
 * How many public events each meeting has emitted: the next one is stamped with the count plus
 * one (`meetingSeq`), so the events feed can order a meeting's events however the bus delivers
 * them. Meetings from before start at 0: their next event is 1 and waits for nothing.
 */
export const recordingEventSeq: Migration = {
  async up(db: Kysely<any>) {
    await db.schema
      .alterTable('recording')
      .addColumn('event_seq', 'integer', (c) => c.notNull().defaultTo(0))
      .execute();
  },
  async down(db: Kysely<any>) {
    await db.schema.alterTable('recording').dropColumn('event_seq').execute();
  },
};
