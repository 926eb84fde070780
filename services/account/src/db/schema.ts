import type { Generated } from 'kysely';
import type { CreditKind, MemoryCategory, NamingMode, UiLocale } from '@mm/contract';

export type LedgerKind = 'credit' | 'hold' | 'capture' | 'release' | 'ask_charge';

export interface WalletTable {
  accountId: string;
  createdAt: Generated<Date>;
  /** The ledger's totals, kept by a trigger on every entry (migration 0008): read, never written. */
  credits: Generated<string>;
  captures: Generated<string>;
  askCharges: Generated<string>;
  /** Every hold's minutes, and those of the holds already captured or released. */
  held: Generated<string>;
  heldClosed: Generated<string>;
  hasTrial: Generated<boolean>;
  hasPurchase: Generated<boolean>;
}

/** A hold neither captured nor released (kept by a trigger on the ledger, migration 0009): read, never written. */
export interface OpenHoldTable {
  /** The hold's ledger reference (`hold:` and the meeting id). */
  reference: string;
  accountId: string;
  createdAt: Date;
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
  /** A hold made without admission (a retried or restored meeting): not counted as a new meeting. */
  forced: Generated<boolean>;
  createdAt: Generated<Date>;
}

export type { CreditKind, MemoryCategory, NamingMode, UiLocale };

/** The account's settings and vocabulary; absent until the first change (defaults apply). */
export interface SettingTable {
  accountId: string;
  speakerNamingMode: Generated<NamingMode>;
  memoryLearningEnabled: Generated<boolean>;
  summaryEmailEnabled: Generated<boolean>;
  uiLocale: Generated<UiLocale>;
  keyterms: Generated<string[]>;
  updatedAt: Generated<Date>;
}

/** The settings the contract keeps to the app alone (migration 0010); no row: all off. */
export interface AppSettingTable {
  accountId: string;
  deleteAudioAfterDigest: Generated<boolean>;
  updatedAt: Generated<Date>;
}

export interface MemoryNoteTable {
  id: string;
  accountId: string;
  category: MemoryCategory;
  text: string;
  /** Duplicate key: whitespace collapsed, case ignored; unique per account and category. */
  textKey: string;
  meetingCount: Generated<number>;
  pinned: Generated<boolean>;
  createdAt: Generated<Date>;
  updatedAt: Generated<Date>;
}

/** Meetings already learned from (idempotency of account.memory.learn). */
export interface MemoryLearningTable {
  accountId: string;
  meetingId: string;
  /** False when learning was off at the time: the meeting never teaches later either. */
  applied: boolean;
  createdAt: Generated<Date>;
}

/** A meeting's summary email: claimed while sending, then sent or failed for good; never sent twice. */
export interface SummaryEmailTable {
  recordingId: string;
  accountId: string;
  state: 'sending' | 'sent' | 'failed';
  claimedAt: Generated<Date>;
  sentAt: Date | null;
  messageId: string | null;
  error: string | null;
}

/** A summary a person emailed from the app (the per-account sending limit counts these). */
export interface SummaryShareTable {
  id: Generated<string>;
  accountId: string;
  recordingId: string;
  target: 'me' | 'series';
  recipients: number;
  sentAt: Generated<Date>;
}

export interface Database {
  wallet: WalletTable;
  ledgerEntry: LedgerEntryTable;
  openHold: OpenHoldTable;
  setting: SettingTable;
  appSetting: AppSettingTable;
  memoryNote: MemoryNoteTable;
  memoryLearning: MemoryLearningTable;
  summaryEmail: SummaryEmailTable;
  summaryShare: SummaryShareTable;
}
