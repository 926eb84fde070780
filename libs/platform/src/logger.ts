import pino, { type Logger } from 'pino';

export type { Logger };

/**
 * Standard output, written asynchronously: a log line is handed to the kernel after the request
 * that logged it, never while the event loop waits (a slow log collector or a full pipe cannot
 * stall requests). Lines are gathered up to `bufferBytes` (LOG_BUFFER_BYTES, default 15,000 bytes) or
 * 200 ms, whichever comes first, and written together: each write is a trip through node's
 * thread pool, which per line cost ~8% of the whoami bench's throughput (docs/decisions.md).
 * What is still buffered is written synchronously when the process exits, so a stopping service
 * loses no line; a killed one (SIGKILL, out of memory) loses at most the last 200 ms.
 */
let stdout: ReturnType<typeof pino.destination> | null = null;

/** How long a gathered line may wait for others before it is written anyway. */
const FLUSH_MS = 200;

function asyncStdout(bufferBytes: number): ReturnType<typeof pino.destination> {
  if (!stdout) {
    const dest = pino.destination({
      dest: 1,
      sync: false,
      minLength: bufferBytes,
      periodicFlush: bufferBytes > 0 ? FLUSH_MS : 0,
    });
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

/**
 * JSON logs, one line per event; authorization headers and principals are never written.
 * `bufferBytes` applies to the process's first logger (they all share standard output).
 */
export function createLogger(service: string, level = 'info', bufferBytes = 0): Logger {
  return pino(
    {
      level,
      base: { service },
      redact: {
        paths: ['req.headers.authorization', 'req.headers["x-mm-principal"]', 'headers.authorization'],
        censor: '[redacted]',
      },
    },
    asyncStdout(bufferBytes),
  );
}
