import { sql, type Kysely, type Migration } from 'kysely';

/**
 * The holds neither captured nor released, as a table of their own (kept by a trigger on the
 * ledger, beside the wallet's totals of migration 0008), so that the orphan-hold reconciler pages
 * through the open holds only: it read every hold ever made, oldest first, and skipped the closed
 * ones, a pass that grew with the ledger (docs/decisions.md, session 32).
 *
 * A hold inserted with no closing yet is opened; a capture or release closes its hold. An update or
 * delete of entries (no service makes one) works the holds it touched out again from the ledger,
 * once per statement; a TRUNCATE empties the table.
 */
export const trackOpenHolds: Migration = {
  async up(db: Kysely<any>) {
    await sql`
      create table account.open_hold (
        reference text primary key,
        account_id text not null,
        created_at timestamptz not null
      )`.execute(db);
    await sql`create index open_hold_time on account.open_hold (created_at, reference)`.execute(db);
    await sql`
      create function account.open_holds_again(refs text[]) returns void language sql as $$
        delete from account.open_hold where reference = any(refs);
        insert into account.open_hold (reference, account_id, created_at)
        select h.reference, h.account_id, h.created_at from account.ledger_entry h
        where h.reference = any(refs) and h.kind = 'hold' and not exists (
          select 1 from account.ledger_entry c
          where c.hold_reference = h.reference and c.kind in ('capture', 'release'));
      $$`.execute(db);
    await sql`
      create function account.track_open_hold() returns trigger language plpgsql as $$
      begin
        -- Under the wallet's row lock, as the totals (0008): a hold and its closing are ordered.
        perform 1 from account.wallet where account_id = new.account_id for no key update;
        if new.kind = 'hold' and not exists (
          select 1 from account.ledger_entry c
          where c.hold_reference = new.reference and c.kind in ('capture', 'release')) then
          insert into account.open_hold (reference, account_id, created_at)
          values (new.reference, new.account_id, new.created_at) on conflict (reference) do nothing;
        elsif new.kind in ('capture', 'release') and new.hold_reference is not null then
          delete from account.open_hold where reference = new.hold_reference;
        end if;
        return null;
      end $$`.execute(db);
    await sql`
      create function account.track_changed_holds() returns trigger language plpgsql as $$
      begin
        if tg_op = 'TRUNCATE' then
          delete from account.open_hold;
        elsif tg_op = 'DELETE' then
          perform account.open_holds_again(array(
            select coalesce(hold_reference, reference) from gone where kind in ('hold', 'capture', 'release')));
        else
          perform account.open_holds_again(array(
            select coalesce(hold_reference, reference) from gone where kind in ('hold', 'capture', 'release')
            union select coalesce(hold_reference, reference) from came where kind in ('hold', 'capture', 'release')));
        end if;
        return null;
      end $$`.execute(db);
    await sql`create trigger ledger_entry_open_holds after insert on account.ledger_entry
      for each row execute function account.track_open_hold()`.execute(db);
    await sql`create trigger ledger_entry_open_holds_updated after update on account.ledger_entry
      referencing old table as gone new table as came
      for each statement execute function account.track_changed_holds()`.execute(db);
    await sql`create trigger ledger_entry_open_holds_deleted after delete on account.ledger_entry
      referencing old table as gone
      for each statement execute function account.track_changed_holds()`.execute(db);
    await sql`create trigger ledger_entry_open_holds_truncated after truncate on account.ledger_entry
      for each statement execute function account.track_changed_holds()`.execute(db);
    // The holds open as the ledger stands.
    await sql`
      insert into account.open_hold (reference, account_id, created_at)
      select h.reference, h.account_id, h.created_at from account.ledger_entry h
      where h.kind = 'hold' and not exists (
        select 1 from account.ledger_entry c
        where c.hold_reference = h.reference and c.kind in ('capture', 'release'))`.execute(db);
  },
  async down(db: Kysely<any>) {
    for (const trigger of ['open_holds', 'open_holds_updated', 'open_holds_deleted', 'open_holds_truncated'])
      await sql`drop trigger ${sql.raw(`ledger_entry_${trigger}`)} on account.ledger_entry`.execute(db);
    await sql`drop function account.track_changed_holds()`.execute(db);
    await sql`drop function account.track_open_hold()`.execute(db);
    await sql`drop function account.open_holds_again(text[])`.execute(db);
    await sql`drop table account.open_hold`.execute(db);
  },
};
