import pino, { type Logger } from 'pino';

export type { Logger };

/** JSON logs, one line per event; authorization headers and principals are never written. */
export function createLogger(service: string, level = 'info'): Logger {
  return pino({
    level,
    base: { service },
    redact: { paths: ['req.headers.authorization', 'req.headers["x-mm-principal"]', 'headers.authorization'], censor: '[redacted]' },
  });
}
