import { sql, type Kysely, type Selectable, type Transaction } from 'kysely';
import { keyArray, preparedByKey } from '@mm/db';
import { DEFAULT_SETTINGS, type AccountSettings, type AppSettings, type SettingsPatch } from '../domain/settings';
import type { Database, SettingTable } from './schema';

type Db = Kysely<Database> | Transaction<Database>;

function toSettings(row: Selectable<SettingTable> | undefined): AccountSettings {
  if (!row) return { ...DEFAULT_SETTINGS };
  return {
    speakerNamingMode: row.speakerNamingMode,
    memoryLearningEnabled: row.memoryLearningEnabled,
    summaryEmailEnabled: row.summaryEmailEnabled,
    uiLocale: row.uiLocale,
  };
}

/**
 * An account's settings row, and its vocabulary alone: every read of GET /account and its keyterms
 * (the reads of one turn of the event loop share a statement).
 */
const SETTINGS = preparedByKey(
  (db: Kysely<Database>, accountIds: string[]) =>
    db
      .selectFrom('setting')
      .selectAll()
      .where(sql<boolean>`account_id = any(${keyArray(accountIds)})`),
  (row) => row.accountId,
);
const KEYTERMS = preparedByKey(
  (db: Kysely<Database>, accountIds: string[]) =>
    db
      .selectFrom('setting')
      .select(['accountId', 'keyterms'])
      .where(sql<boolean>`account_id = any(${keyArray(accountIds)})`),
  (row) => row.accountId,
);

/** The account's settings row and vocabulary; a missing row reads as the defaults. */
export class SettingsRepository {
  constructor(readonly db: Kysely<Database>) {}

  async settings(db: Db, accountId: string): Promise<AccountSettings> {
    return toSettings(await SETTINGS.first(db, accountId));
  }

  /** The app's settings: the contract's, and the app's own from its table (no row: off). */
  async appSettings(db: Db, accountId: string): Promise<AppSettings> {
    const [settings, own] = await Promise.all([
      this.settings(db, accountId),
      db
        .selectFrom('appSetting')
        .select('deleteAudioAfterDigest')
        .where('accountId', '=', accountId)
        .executeTakeFirst(),
    ]);
    return { ...settings, deleteAudioAfterDigest: own?.deleteAudioAfterDigest ?? false };
  }

  async keyterms(db: Db, accountId: string): Promise<string[]> {
    const row = await KEYTERMS.first(db, accountId);
    return row?.keyterms ?? [];
  }

  /** Writes the given settings (creating the row with defaults for the rest) and returns them all. */
  async updateSettings(db: Db, accountId: string, patch: SettingsPatch): Promise<AccountSettings> {
    return toSettings(await this.write(db, accountId, patch));
  }

  /** The app's write, in one transaction: the contract's settings and the app's own, each in its table. */
  async updateAppSettings(accountId: string, patch: Partial<AppSettings>): Promise<AppSettings> {
    const { deleteAudioAfterDigest, ...contract } = patch;
    return this.db.transaction().execute(async (trx) => {
      if (Object.keys(contract).length > 0) await this.write(trx, accountId, contract);
      if (deleteAudioAfterDigest !== undefined)
        await trx
          .insertInto('appSetting')
          .values({ accountId, deleteAudioAfterDigest })
          .onConflict((oc) => oc.column('accountId').doUpdateSet({ deleteAudioAfterDigest, updatedAt: new Date() }))
          .execute();
      return this.appSettings(trx, accountId);
    });
  }

  private write(db: Db, accountId: string, patch: Partial<AccountSettings>) {
    return db
      .insertInto('setting')
      .values({ accountId, ...patch })
      .onConflict((oc) => oc.column('accountId').doUpdateSet({ ...patch, updatedAt: new Date() }))
      .returningAll()
      .executeTakeFirstOrThrow();
  }

  async replaceKeyterms(db: Db, accountId: string, keyterms: string[]): Promise<string[]> {
    const row = await db
      .insertInto('setting')
      .values({ accountId, keyterms })
      .onConflict((oc) => oc.column('accountId').doUpdateSet({ keyterms, updatedAt: new Date() }))
      .returning('keyterms')
      .executeTakeFirstOrThrow();
    return row.keyterms;
  }
}
