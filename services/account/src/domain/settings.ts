/** The account's settings: their defaults and the patch a token may apply. No I/O. */
import type { MemoryCategory, NamingMode, UiLocale } from '../db/schema';

export interface AccountSettings {
  speakerNamingMode: NamingMode;
  memoryLearningEnabled: boolean;
  summaryEmailEnabled: boolean;
  uiLocale: UiLocale;
}

/**
 * The settings as the app shows them: the contract's, and the one it keeps to the app alone (not
 * in GET /account): whether a meeting's audio is deleted once its digest is ready.
 */
export interface AppSettings extends AccountSettings {
  deleteAudioAfterDigest: boolean;
}

/** What an account that never changed anything has (the contract's defaults). */
export const DEFAULT_SETTINGS: Readonly<AccountSettings> = Object.freeze({
  speakerNamingMode: 'AUTO',
  memoryLearningEnabled: true,
  summaryEmailEnabled: false,
  uiLocale: 'en',
});

/** The settings a token may change; uiLocale is set only in the app. */
export type SettingsPatch = Partial<
  Pick<AccountSettings, 'speakerNamingMode' | 'memoryLearningEnabled' | 'summaryEmailEnabled'>
>;

const PATCHABLE = ['speakerNamingMode', 'memoryLearningEnabled', 'summaryEmailEnabled'] as const;

/** Picks the patchable settings from a validated body; null when it names none (nothing to write). */
export function settingsPatchOf(body: Record<string, unknown>): SettingsPatch | null {
  const patch: Record<string, unknown> = {};
  for (const k of PATCHABLE) if (body[k] !== undefined) patch[k] = body[k];
  return Object.keys(patch).length ? (patch as SettingsPatch) : null;
}

/** Memory categories in the order the contract lists them (and notes are listed in). */
export const MEMORY_CATEGORY_ORDER: readonly MemoryCategory[] = ['ABOUT_YOU', 'PEOPLE', 'TERMS'];
