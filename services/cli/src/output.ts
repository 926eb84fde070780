import { MmApiError, MmTransportError, transportCause } from '@mm/sdk';
import { BASE_URL_HINT } from './domain/base-url';
import { EXIT, exitCodeOf } from './domain/exit-codes';
import { waitText } from './domain/format';
import { requiredScopes } from './domain/required-scopes';

/** A failure the command line itself reports (usage, no login, a bad file or URL), with its exit code. */
export class CliError extends Error {
  constructor(
    readonly code: string,
    message: string,
    readonly exitCode: number,
    readonly details?: Record<string, unknown>,
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

/** An error as the command line shows it: the contract's code (or the command line's own), message, details. */
export interface ErrorView {
  code: string;
  message: string;
  details?: Record<string, unknown>;
  /** Seconds to wait before trying again (a 429's Retry-After). */
  retryAfterSeconds?: number;
}

/**
 * The view and exit code of any error. `apiRoot` is the API the command talked to, named when it
 * could not be reached or did not answer like the API.
 */
export function describeError(err: unknown, apiRoot?: string): { error: ErrorView; exitCode: number } {
  if (err instanceof MmApiError) return describeApiError(err, apiRoot);
  if (err instanceof MmTransportError) {
    const cause = transportCause(err);
    const where = apiRoot ?? 'the service';
    return {
      error: {
        code: 'UNREACHABLE',
        message: `cannot reach ${where}: ${cause.message}`,
        details: { ...(apiRoot ? { url: apiRoot } : {}), ...(cause.code ? { cause: cause.code } : {}) },
      },
      exitCode: EXIT.UNAVAILABLE,
    };
  }
  if (err instanceof CliError)
    return {
      error: { code: err.code, message: err.message, ...(err.details ? { details: err.details } : {}) },
      exitCode: err.exitCode,
    };
  const message = err instanceof Error ? err.message : String(err);
  return { error: { code: 'UNEXPECTED', message }, exitCode: EXIT.UNEXPECTED };
}

function describeApiError(err: MmApiError, apiRoot: string | undefined): { error: ErrorView; exitCode: number } {
  // The SDK names an answer without the API's error body HTTP_<status>: a 4xx of that kind comes
  // from a server or path that is not the API (the command line only calls routes that exist).
  if (err.code.startsWith('HTTP_') && err.status < 500 && err.status !== 429)
    return {
      error: {
        code: 'NOT_THE_API',
        message:
          `${apiRoot ?? 'the URL'} does not look like the Meeting Memory API (it answered ${err.status} ` +
          `${JSON.stringify(err.message)} without the API's error body); ${BASE_URL_HINT}, in MM_URL or mm login --url`,
        details: { status: err.status, ...(apiRoot ? { url: apiRoot } : {}) },
      },
      exitCode: EXIT.USAGE,
    };
  const retry = err.retryAfterSeconds;
  if (err.code === 'TOKEN_SCOPE' && err.request && apiRoot) {
    const scopes = requiredScopes(err.request.method, err.request.url, apiRoot);
    if (scopes.length)
      return {
        error: {
          code: err.code,
          message: `${err.message} This needs the scope ${scopes.join(' or ')}: make a token that has it in the app.`,
          details: { ...err.details, requiredScopes: scopes },
        },
        exitCode: exitCodeOf(err.code, err.status),
      };
  }
  return {
    error: {
      code: err.code,
      message: retry === undefined ? err.message : `${err.message} (retry after ${waitText(retry)})`,
      ...(err.details ? { details: err.details } : {}),
      ...(retry === undefined ? {} : { retryAfterSeconds: retry }),
    },
    exitCode: exitCodeOf(err.code, err.status),
  };
}

/**
 * Reports an error with the contract's code and message (JSON on stdout with --json, else a line
 * on stderr) and answers the documented exit code for its kind.
 */
export function reportError(err: unknown, json: boolean, apiRoot?: string): number {
  const { error, exitCode } = describeError(err, apiRoot);
  if (json) process.stdout.write(`${JSON.stringify({ error, exitCode })}\n`);
  else process.stderr.write(`${errorLine(error)}\n`);
  return exitCode;
}

/** `error CODE: message {details}`, with what it concerns (a file, an id) after the code. */
export function errorLine(error: ErrorView, about = ''): string {
  const details = error.details ? ` ${JSON.stringify(error.details)}` : '';
  return `error ${error.code}${about ? ` ${about}` : ''}: ${error.message}${details}`;
}
