import { EnvReader, readAskCharsPerMinute, readCommonConfig, readUploadLimits, type CommonConfig } from '@mm/http';
import { readStoreConfig, type StoreConfig } from '@mm/store';

export interface RecordingsConfig extends CommonConfig {
  audioStore: StoreConfig;
  uploadLimits: { maxUploadMb: number; maxRecordingMinutes: number };
  naming: {
    autoWaitSeconds: number;
    forceOnDeadlineHours: number;
    singleVoiceWaitSeconds: number;
    sheetOpenSeconds: number;
  };
  /** Silent meetings (NO_SPEECH) an account may have fail for free in 24 hours; beyond, they are charged with an empty digest. */
  freeSilentMeetingsPerDay: number;
  /** Orphan holds: looked for every `intervalSeconds`, among holds open longer than `staleSeconds`. */
  holdReconcile: { staleSeconds: number; intervalSeconds: number };
  /** The trash: deleted meetings stay restorable `days`, then a pass every `intervalSeconds` purges them for good. */
  trash: { days: number; intervalSeconds: number; batch: number };
  /** A `storing` idempotency claim older than this belongs to a request that died. */
  staleClaimSeconds: number;
  /** ffmpeg and ffprobe (`FFMPEG_PATH`, `FFPROBE_PATH`; found on PATH by default). */
  mediaTools: { ffmpeg: string; ffprobe: string };
  /** Characters an Ask reads per minute it costs: the quotes price by it (`ASK_CHARS_PER_MINUTE`, as the ask service). */
  askCharsPerMinute: number;
}

/** Reads the recordings service's environment once; every bad variable is reported at once. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Readonly<RecordingsConfig> {
  const r = new EnvReader(env);
  return r.done('recordings', {
    ...readCommonConfig(r, 'recordings'),
    audioStore: readStoreConfig(r),
    uploadLimits: readUploadLimits(r),
    naming: {
      autoWaitSeconds: r.num('NAMING_AUTO_WAIT_SECONDS', 120, 0),
      forceOnDeadlineHours: r.num('NAMING_FORCE_ON_DEADLINE_HOURS', 24, 0),
      singleVoiceWaitSeconds: r.num('NAMING_SINGLE_VOICE_WAIT_SECONDS', 5, 0),
      sheetOpenSeconds: r.num('NAMING_SHEET_OPEN_SECONDS', 900, 0),
    },
    freeSilentMeetingsPerDay: r.num('FREE_SILENT_MEETINGS_PER_DAY', 3, 0),
    staleClaimSeconds: r.num('UPLOAD_CLAIM_STALE_SECONDS', 900, 1),
    holdReconcile: {
      staleSeconds: r.num('STALE_HOLD_SECONDS', 3600, 1),
      intervalSeconds: r.num('HOLD_RECONCILE_SECONDS', 300, 1),
    },
    trash: {
      days: r.num('TRASH_DAYS', 30, 0),
      intervalSeconds: r.num('TRASH_PURGE_SECONDS', 3600, 1),
      batch: r.num('TRASH_PURGE_BATCH', 20, 1),
    },
    mediaTools: { ffmpeg: r.str('FFMPEG_PATH', 'ffmpeg'), ffprobe: r.str('FFPROBE_PATH', 'ffprobe') },
    askCharsPerMinute: readAskCharsPerMinute(r),
  });
}
