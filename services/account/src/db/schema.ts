import type { Generated } from 'kysely';

export type LedgerKind = 'credit' | 'hold' | 'capture' | 'release' | 'ask_charge';
export type CreditKind = 'trial' | 'grant' | 'purchase';

export interface WalletTable {
  accountId: string;
  createdAt: Generated<Date>;
}

export interface LedgerEntryTable {
  id: Generated<string>;
  accountId: string;
  kind: LedgerKind;
  creditKind: CreditKind | null;
  minutes: number;
  /** Idempotency: one entry per reference, so a redelivered request never moves money twice. */
  reference: string;
  /** For capture and release: the hold they close. */
  holdReference: string | null;
  tokenId: string | null;
  createdAt: Generated<Date>;
}

export interface Database {
  wallet: WalletTable;
  ledgerEntry: LedgerEntryTable;
}
