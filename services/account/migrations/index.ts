import type { MigrationSet } from '@mm/db';
import { createWallet } from './0001_create_wallet';
import { createSettingsAndMemory } from './0002_create_settings_and_memory';
import { createSummaryEmail } from './0003_create_summary_email';
import { notifyWalletChanges } from './0004_notify_wallet_changes';
import { markForcedHolds } from './0005_mark_forced_holds';
import { indexOpenHolds } from './0006_index_open_holds';
import { createSummaryShare } from './0007_create_summary_share';
import { keepWalletTotals } from './0008_keep_wallet_totals';
import { trackOpenHolds } from './0009_track_open_holds';
import { deleteAudioSetting } from './0010_delete_audio_setting';

export const migrations: MigrationSet = {
  '0001_create_wallet': createWallet,
  '0002_create_settings_and_memory': createSettingsAndMemory,
  '0003_create_summary_email': createSummaryEmail,
  '0004_notify_wallet_changes': notifyWalletChanges,
  '0005_mark_forced_holds': markForcedHolds,
  '0006_index_open_holds': indexOpenHolds,
  '0007_create_summary_share': createSummaryShare,
  '0008_keep_wallet_totals': keepWalletTotals,
  '0009_track_open_holds': trackOpenHolds,
  '0010_delete_audio_setting': deleteAudioSetting,
};
