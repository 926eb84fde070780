import type { Kysely } from 'kysely';
import { ApiError } from '@mm/http';
import { KeytermRuleError, normalizeKeyterms } from '@mm/text';
import type { Database } from '../db/schema';
import { SettingsRepository } from '../db/settings.repository';
import type { AccountSettings, AppSettings, SettingsPatch } from '../domain/settings';

/** Use cases of the account's settings and vocabulary (routes and the bus share them). */
export class SettingsService {
  readonly repo: SettingsRepository;
  constructor(private readonly db: Kysely<Database>) {
    this.repo = new SettingsRepository(db);
  }

  settings(accountId: string): Promise<AccountSettings> {
    return this.repo.settings(this.db, accountId);
  }

  update(accountId: string, patch: SettingsPatch): Promise<AccountSettings> {
    return this.repo.updateSettings(this.db, accountId, patch);
  }

  /** The app's settings, its own included (never a token's to read or change). */
  appSettings(accountId: string): Promise<AppSettings> {
    return this.repo.appSettings(this.db, accountId);
  }

  updateApp(accountId: string, patch: Partial<AppSettings>): Promise<AppSettings> {
    return this.repo.updateAppSettings(accountId, patch);
  }

  keyterms(accountId: string): Promise<string[]> {
    return this.repo.keyterms(this.db, accountId);
  }

  /** Replaces the whole vocabulary after the term rules; a broken rule is VALIDATION naming the first problem. */
  async replaceKeyterms(accountId: string, terms: unknown[]): Promise<string[]> {
    return this.repo.replaceKeyterms(this.db, accountId, checkedKeyterms(terms));
  }

  /**
   * What the recordings service needs for a meeting: the settings (whether its audio goes once its
   * digest is ready included) and the account vocabulary.
   */
  async forMeeting(accountId: string): Promise<{ settings: AppSettings; keyterms: string[] }> {
    const [settings, keyterms] = await Promise.all([this.appSettings(accountId), this.keyterms(accountId)]);
    return { settings, keyterms };
  }
}

/** The term rules as the API answers them: VALIDATION with the rule's message. */
export function checkedKeyterms(terms: unknown[]): string[] {
  try {
    return normalizeKeyterms(terms);
  } catch (err) {
    if (err instanceof KeytermRuleError) throw new ApiError('VALIDATION', err.message);
    throw err;
  }
}
