import { sql, type Kysely, type Migration } from 'kysely';

/**
 * The wallet row keeps the ledger's totals (credits, captures, Ask charges, minutes held and the
 * part of them closed, whether a trial or a purchase credit was ever made), kept by a trigger on
 * every entry, so that a money move and whoami read one row instead of summing the account's whole
 * ledger (1 ms at 539 entries, and growing with every meeting: docs/decisions.md). The ledger stays
 * the record: entries are still only inserted, and the totals are what summing it gives (the
 * wallet's property test checks both).
 *
 * An insert adds its entry; a closing (capture or release) closes its hold's minutes once, the
 * first closing of that hold, counted under the wallet's lock so two closings cannot both count.
 * An update or delete (no service makes one) counts each account it touched again from its ledger,
 * once per statement; a TRUNCATE empties every total.
 */
export const keepWalletTotals: Migration = {
  async up(db: Kysely<any>) {
    await sql`
      alter table account.wallet
        add column credits bigint not null default 0,
        add column captures bigint not null default 0,
        add column ask_charges bigint not null default 0,
        add column held bigint not null default 0,
        add column held_closed bigint not null default 0,
        add column has_trial boolean not null default false,
        add column has_purchase boolean not null default false`.execute(db);
    await sql`
      create function account.count_wallet_totals(acc text) returns void language sql as $$
        update account.wallet w set
          credits = s.credits, captures = s.captures, ask_charges = s.ask_charges, held = s.held,
          held_closed = s.held_closed, has_trial = s.has_trial, has_purchase = s.has_purchase
        from (
          select
            coalesce(sum(l.minutes) filter (where l.kind = 'credit'), 0) as credits,
            coalesce(sum(l.minutes) filter (where l.kind = 'capture'), 0) as captures,
            coalesce(sum(l.minutes) filter (where l.kind = 'ask_charge'), 0) as ask_charges,
            coalesce(sum(l.minutes) filter (where l.kind = 'hold'), 0) as held,
            coalesce(sum(l.minutes) filter (where l.kind = 'hold' and exists (
              select 1 from account.ledger_entry c
              where c.hold_reference = l.reference and c.kind in ('capture', 'release'))), 0) as held_closed,
            coalesce(bool_or(l.credit_kind = 'trial'), false) as has_trial,
            coalesce(bool_or(l.credit_kind = 'purchase'), false) as has_purchase
          from account.ledger_entry l where l.account_id = acc
        ) s
        where w.account_id = acc
      $$`.execute(db);
    await sql`
      create function account.add_to_wallet_totals() returns trigger language plpgsql as $$
      declare
        hold record;
      begin
        -- The wallet's row lock first: each statement below then sees every closing committed before
        -- it. NO KEY UPDATE, which the insert's own foreign-key lock (KEY SHARE) does not conflict with.
        perform 1 from account.wallet where account_id = new.account_id for no key update;
        if new.kind = 'credit' then
          update account.wallet set credits = credits + new.minutes,
            has_trial = has_trial or coalesce(new.credit_kind = 'trial', false),
            has_purchase = has_purchase or coalesce(new.credit_kind = 'purchase', false)
          where account_id = new.account_id;
        elsif new.kind = 'ask_charge' then
          update account.wallet set ask_charges = ask_charges + new.minutes where account_id = new.account_id;
        elsif new.kind = 'hold' then
          update account.wallet set held = held + new.minutes,
            held_closed = held_closed + case when exists (
              select 1 from account.ledger_entry c
              where c.hold_reference = new.reference and c.kind in ('capture', 'release')) then new.minutes else 0 end
          where account_id = new.account_id;
        end if;
        if new.kind = 'capture' then
          update account.wallet set captures = captures + new.minutes where account_id = new.account_id;
        end if;
        if new.kind in ('capture', 'release') and new.hold_reference is not null and not exists (
          select 1 from account.ledger_entry c
          where c.hold_reference = new.hold_reference and c.kind in ('capture', 'release') and c.id <> new.id) then
          select account_id, minutes into hold from account.ledger_entry
          where reference = new.hold_reference and kind = 'hold';
          if found then
            update account.wallet set held_closed = held_closed + hold.minutes where account_id = hold.account_id;
          end if;
        end if;
        return null;
      end $$`.execute(db);
    // Updates and deletes (no service makes one): each account they touched, counted again once per
    // statement (a row-level count would make deleting a long ledger quadratic).
    await sql`
      create function account.count_changed_wallets() returns trigger language plpgsql as $$
      begin
        if tg_op = 'TRUNCATE' then
          update account.wallet set credits = 0, captures = 0, ask_charges = 0, held = 0, held_closed = 0,
            has_trial = false, has_purchase = false;
        elsif tg_op = 'DELETE' then
          perform account.count_wallet_totals(a.account_id) from (select distinct account_id from gone) a;
        else
          perform account.count_wallet_totals(a.account_id)
          from (select account_id from gone union select account_id from came) a;
        end if;
        return null;
      end $$`.execute(db);
    await sql`create trigger ledger_entry_totals after insert on account.ledger_entry
      for each row execute function account.add_to_wallet_totals()`.execute(db);
    await sql`create trigger ledger_entry_totals_updated after update on account.ledger_entry
      referencing old table as gone new table as came
      for each statement execute function account.count_changed_wallets()`.execute(db);
    await sql`create trigger ledger_entry_totals_deleted after delete on account.ledger_entry
      referencing old table as gone
      for each statement execute function account.count_changed_wallets()`.execute(db);
    await sql`create trigger ledger_entry_totals_truncated after truncate on account.ledger_entry
      for each statement execute function account.count_changed_wallets()`.execute(db);
    // The totals of the ledger as it stands.
    await sql`select account.count_wallet_totals(account_id) from account.wallet`.execute(db);
  },
  async down(db: Kysely<any>) {
    for (const trigger of ['totals', 'totals_updated', 'totals_deleted', 'totals_truncated'])
      await sql`drop trigger ${sql.raw(`ledger_entry_${trigger}`)} on account.ledger_entry`.execute(db);
    await sql`drop function account.count_changed_wallets()`.execute(db);
    await sql`drop function account.add_to_wallet_totals()`.execute(db);
    await sql`drop function account.count_wallet_totals(text)`.execute(db);
    await sql`
      alter table account.wallet drop column credits, drop column captures, drop column ask_charges,
        drop column held, drop column held_closed, drop column has_trial, drop column has_purchase`.execute(db);
  },
};
