import { EnvReader, readCommonConfig, type CommonConfig } from '@mm/http';

/** The events service needs only the common settings (INTERNAL_JWT_SECRET also signs its cursors). */
export type EventsConfig = CommonConfig;

/** Reads the events service's environment once; every bad variable is reported at once. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Readonly<EventsConfig> {
  const r = new EnvReader(env);
  return r.done('events', { ...readCommonConfig(r, 'events') });
}
