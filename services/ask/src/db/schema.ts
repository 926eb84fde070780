import type { Generated, Selectable } from 'kysely';

export type TargetKind = 'recording' | 'series';

export interface AskTable {
  id: string;
  accountId: string;
  tokenId: string | null;
  targetKind: TargetKind;
  targetId: string;
  idempotencyKey: string | null;
  state: 'answering' | 'answered';
  /** The request holding the claim (a takeover gives it a new one). */
  attempt: string;
  question: string;
  /** The Ask answer as sent (schemaVersion included), once answered. */
  answer: unknown;
  minutes: number;
  createdAt: Generated<Date>;
  answeredAt: Date | null;
}

export type AskRow = Selectable<AskTable>;

export interface Database {
  ask: AskTable;
}
