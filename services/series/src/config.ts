import { EnvReader, readCommonConfig, type CommonConfig } from '@mm/http';

/** The series service needs only the common settings (APP_URL and PUBLIC_BASE_URL build its links). */
export type SeriesConfig = CommonConfig;

/** Reads the series service's environment once; every bad variable is reported at once. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Readonly<SeriesConfig> {
  const r = new EnvReader(env);
  return r.done('series', { ...readCommonConfig(r, 'series') });
}
