import { sql, type Kysely, type Migration } from 'kysely';

/**
 * Every change to the ledger notifies channel `account_wallet_changed` with the account id (on
 * commit, once per distinct payload), so that each replica's cache of whoami's figures forgets
 * that account. TRUNCATE notifies '*'.
 */
export const notifyWalletChanges: Migration = {
  async up(db: Kysely<any>) {
    await sql`
      create function account.notify_wallet_changed() returns trigger language plpgsql as $$
      begin
        if tg_op = 'TRUNCATE' then
          perform pg_notify('account_wallet_changed', '*');
          return null;
        end if;
        if tg_op in ('UPDATE', 'DELETE') then
          perform pg_notify('account_wallet_changed', old.account_id);
        end if;
        if tg_op in ('INSERT', 'UPDATE') then
          perform pg_notify('account_wallet_changed', new.account_id);
        end if;
        return null;
      end $$`.execute(db);
    await sql`create trigger ledger_entry_changed after insert or update or delete on account.ledger_entry
      for each row execute function account.notify_wallet_changed()`.execute(db);
    await sql`create trigger ledger_entry_truncated after truncate on account.ledger_entry
      for each statement execute function account.notify_wallet_changed()`.execute(db);
  },
  async down(db: Kysely<any>) {
    await sql`drop trigger ledger_entry_truncated on account.ledger_entry`.execute(db);
    await sql`drop trigger ledger_entry_changed on account.ledger_entry`.execute(db);
    await sql`drop function account.notify_wallet_changed()`.execute(db);
  },
};
