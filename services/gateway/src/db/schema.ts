import type { Generated, Selectable } from 'kysely';

export interface AccountTable {
  id: string;
  displayName: string | null;
  email: string | null;
  developerMode: Generated<boolean>;
  approved: Generated<boolean>;
  trial: Generated<boolean>;
  apiWriteEnabled: Generated<boolean>;
  apiQueryEnabled: Generated<boolean>;
  featureSeries: Generated<boolean>;
  featureAsk: Generated<boolean>;
  featureVideoUpload: Generated<boolean>;
  featureMemory: Generated<boolean>;
  createdAt: Generated<Date>;
}

export interface TokenTable {
  id: string;
  accountId: string;
  name: string;
  scopes: string[];
  hash: string;
  dailyMinuteCap: number | null;
  expiresAt: Date | null;
  revokedAt: Date | null;
  createdAt: Generated<Date>;
}

export interface FlagTable {
  key: string;
  value: unknown;
}

/** One row, changed by triggers with every write to account, token or flag (migration 0003). */
export interface AccessVersionTable {
  id: number;
  /** bigint: pg returns it as a string. */
  version: string;
}

/** One dead-letter replay made through the admin API, with who asked. */
export interface DeadLetterReplayTable {
  id: Generated<string>;
  seq: number;
  subject: string;
  deadLetteredBy: string;
  payloadSha256: string;
  askedBy: string;
  clientAddress: string;
  requestId: string;
  replayedAt: Generated<Date>;
}

export interface Database {
  account: AccountTable;
  token: TokenTable;
  flag: FlagTable;
  accessVersion: AccessVersionTable;
  credential: CredentialTable;
  signInLink: SignInLinkTable;
  session: SessionTable;
  deadLetterReplay: DeadLetterReplayTable;
}

export type AccountRow = Selectable<AccountTable>;
export type TokenRow = Selectable<TokenTable>;

/** The app's sign-in (migration 0004): one password per account, signed in with `email`. */
export interface CredentialTable {
  accountId: string;
  email: string;
  passwordHash: string;
  updatedAt: Generated<Date>;
}

/** A single-use link (an invite or a password reset), kept as a keyed hash of its secret. */
export interface SignInLinkTable {
  hash: string;
  accountId: string;
  purpose: 'invite' | 'reset';
  expiresAt: Date;
  usedAt: Date | null;
  createdAt: Generated<Date>;
}

/** A signed-in browser: the cookie's keyed hash, never the cookie. */
export interface SessionTable {
  id: string;
  hash: string;
  accountId: string;
  csrfToken: string;
  device: string;
  createdAt: Generated<Date>;
  lastSeenAt: Generated<Date>;
  expiresAt: Date;
  endedAt: Date | null;
}

export type SessionRow = Selectable<SessionTable>;
