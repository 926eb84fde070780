import { MmApiError, MmTransportError } from '@mm/sdk';
import { EXIT, exitCodeOf } from './domain/exit-codes';

/** A failure the command line itself reports (usage, no login), with its exit code. */
export class CliError extends Error {
  constructor(
    readonly code: string,
    message: string,
    readonly exitCode: number,
  ) {
    super(message);
  }
}

export interface Out {
  json: boolean;
  /** The command's result: JSON on --json, else the text. */
  result(value: unknown, text: () => string): void;
  /** A progress or information line (stderr, so stdout stays the result). */
  info(line: string): void;
}

export function output(json: boolean): Out {
  return {
    json,
    result: (value, text) => process.stdout.write(`${json ? JSON.stringify(value) : text()}\n`),
    info: (line) => process.stderr.write(`${line}\n`),
  };
}

/**
 * Reports an error with the contract's code and message (JSON on stdout with --json, else a line
 * on stderr) and answers the documented exit code for its kind.
 */
export function reportError(err: unknown, json: boolean): number {
  let code = 'UNEXPECTED';
  let message = err instanceof Error ? err.message : String(err);
  let details: Record<string, unknown> | undefined;
  let exit: number = EXIT.UNEXPECTED;
  if (err instanceof MmApiError) {
    ({ code, details } = err);
    exit = exitCodeOf(err.code, err.status);
  } else if (err instanceof MmTransportError) {
    code = 'UNREACHABLE';
    exit = EXIT.UNAVAILABLE;
  } else if (err instanceof CliError) {
    code = err.code;
    exit = err.exitCode;
  }
  if (json)
    process.stdout.write(
      `${JSON.stringify({ error: { code, message, ...(details ? { details } : {}) }, exitCode: exit })}\n`,
    );
  else process.stderr.write(`error ${code}: ${message}${details ? ` ${JSON.stringify(details)}` : ''}\n`);
  return exit;
}
