import { type Kysely, type Migration } from 'kysely';

/**
 * A meeting's events in the order its changes happened, whatever order the bus delivers them in:
 * each stored event keeps its `meetingSeq` (stamped by recordings), and `meeting_order` the
 * highest one stored per meeting, so an event whose predecessor is not stored yet can wait for it.
 * Not pruned with the events: a meeting changed after 31 days still finds its place.
 */
export const meetingOrder: Migration = {
  async up(db: Kysely<any>) {
    await db.schema.alterTable('event').addColumn('meeting_seq', 'integer').execute();
    await db.schema
      .createTable('meeting_order')
      .addColumn('recording_id', 'text', (c) => c.primaryKey())
      .addColumn('last_seq', 'integer', (c) => c.notNull())
      .execute();
  },
  async down(db: Kysely<any>) {
    await db.schema.dropTable('meeting_order').execute();
    await db.schema.alterTable('event').dropColumn('meeting_seq').execute();
  },
};
