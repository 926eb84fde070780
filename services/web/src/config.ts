import { EnvReader, readCommonConfig, type CommonConfig } from '@mm/http';

/** The app needs only the common settings: APP_URL (its path prefix) and the services' URLs. */
export type WebConfig = CommonConfig;

/** Reads the app's environment once; every bad variable is reported at once. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Readonly<WebConfig> {
  const r = new EnvReader(env);
  return r.done('web', { ...readCommonConfig(r, 'web') });
}
