import pino, { type Logger } from 'pino';

export type { Logger };

/**
 * Standard output, written asynchronously: a log line is handed to the kernel after the request
 * that logged it, never while the event loop waits (a slow log collector or a full pipe cannot
 * stall requests). What is still buffered is written synchronously when the process exits, so a
 * stopping service loses no line.
 */
let stdout: ReturnType<typeof pino.destination> | null = null;

function asyncStdout(): ReturnType<typeof pino.destination> {
  if (!stdout) {
    const dest = pino.destination({ dest: 1, sync: false });
    process.once('exit', () => {
      try {
        dest.flushSync();
      } catch {
        // stdout already gone (closed pipe): nothing left to save the lines to.
      }
    });
    stdout = dest;
  }
  return stdout;
}

/** JSON logs, one line per event; authorization headers and principals are never written. */
export function createLogger(service: string, level = 'info'): Logger {
  return pino(
    {
      level,
      base: { service },
      redact: { paths: ['req.headers.authorization', 'req.headers["x-mm-principal"]', 'headers.authorization'], censor: '[redacted]' },
    },
    asyncStdout(),
  );
}
