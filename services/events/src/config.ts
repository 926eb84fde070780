import { EnvReader, readCommonConfig, type CommonConfig } from '@mm/http';

/** The events service's settings (INTERNAL_JWT_SECRET also signs its cursors). */
export interface EventsConfig extends CommonConfig {
  /** EVENTS_ORDER_WAIT_SECONDS (300): how long a meeting's event waits for the one before it. */
  orderWaitSeconds: number;
}

/** Reads the events service's environment once; every bad variable is reported at once. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Readonly<EventsConfig> {
  const r = new EnvReader(env);
  return r.done('events', {
    ...readCommonConfig(r, 'events'),
    orderWaitSeconds: r.num('EVENTS_ORDER_WAIT_SECONDS', 300, 1),
  });
}
