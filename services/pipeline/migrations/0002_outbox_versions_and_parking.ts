import { sql, type Kysely, type Migration } from 'kysely';

/**
 * The outbox learns versions and parking: each row says which version of its bus-table entry the
 * payload follows, and a row JetStream keeps refusing is parked (sent to the dead letters) so the
 * rows behind it flow.
 */
export const outboxVersionsAndParking: Migration = {
  async up(db: Kysely<any>) {
    await sql`alter table outbox add column version integer not null default 1,
      add column attempts integer not null default 0,
      add column last_error text,
      add column parked_at timestamptz`.execute(db);
    await sql`drop index if exists outbox_unpublished`.execute(db);
    await sql`create index outbox_unpublished on outbox (seq) where published_at is null and parked_at is null`.execute(
      db,
    );
  },
  async down(db: Kysely<any>) {
    await sql`drop index if exists outbox_unpublished`.execute(db);
    await sql`alter table outbox drop column version, drop column attempts, drop column last_error, drop column parked_at`.execute(
      db,
    );
    await sql`create index outbox_unpublished on outbox (seq) where published_at is null`.execute(db);
  },
};
