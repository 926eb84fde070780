import { EnvReader, readCommonConfig, readUploadLimits, type CommonConfig } from '@mm/http';
import type { WalletLimits } from './services/wallet.service';

export interface AccountConfig extends CommonConfig {
  wallet: WalletLimits;
  uploadLimits: { maxUploadMb: number; maxRecordingMinutes: number };
}

/** Reads the account service's environment once; every bad variable is reported at once. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Readonly<AccountConfig> {
  const r = new EnvReader(env);
  return r.done('account', {
    ...readCommonConfig(r, 'account'),
    wallet: {
      dailyMeetingLimit: r.num('DAILY_MEETING_LIMIT', 100, 1),
      dailyAskLimit: r.num('DAILY_ASK_LIMIT', 200, 1),
      trialOverdraftMinutes: r.num('TRIAL_OVERDRAFT_MINUTES', 30, 0),
    },
    uploadLimits: readUploadLimits(r),
  });
}
