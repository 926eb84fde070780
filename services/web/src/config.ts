import { tmpdir } from 'node:os';
import path from 'node:path';
import { EnvReader, readCommonConfig, readUploadLimits, type CommonConfig } from '@mm/http';

/**
 * The common settings (APP_URL, the services' URLs), the upload limits the page checks before
 * sending (the recordings service enforces them), and where an upload's pieces wait until the
 * last one came (WEB_UPLOAD_DIR: a folder every replica of the app shares, as the audio store's).
 */
export type WebConfig = CommonConfig & {
  maxUploadMb: number;
  maxRecordingMinutes: number;
  uploadDir: string;
  /** WEB_UPLOAD_BUDGET_MB: the bytes all unfinished uploads of this replica may declare at once. */
  uploadBudgetMb: number;
};

/** Reads the app's environment once; every bad variable is reported at once. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Readonly<WebConfig> {
  const r = new EnvReader(env);
  return r.done('web', {
    ...readCommonConfig(r, 'web'),
    ...readUploadLimits(r),
    uploadDir: r.str('WEB_UPLOAD_DIR', path.join(tmpdir(), 'mm-web-uploads')),
    uploadBudgetMb: r.num('WEB_UPLOAD_BUDGET_MB', 4096, 1),
  });
}
