import { ErrorCode } from '@modelcontextprotocol/sdk/types.js';
import { MmApiError, MmTransportError, transportCause } from '@mm/sdk';
import { ToolInputError } from './tool-input-error';

/**
 * A failure as a caller sees it: the contract's code and message, its details, and how long
 * Retry-After asked to wait (a 429 that waiting can pass: RATE_LIMITED, TOKEN_DAILY_CAP, ...).
 */
export interface Fault {
  code: string;
  message: string;
  details?: Record<string, unknown>;
  retryAfterSeconds?: number;
}

/**
 * A service's VALIDATION message in the tool's terms: the service names where an argument travelled
 * (`query.limit`, `body.question`, `path.id`), a tool has flat arguments (`limit`, `question`, `id`).
 */
export function inToolTerms(message: string): string {
  return message.replace(/^(?:query|body|path)\./, '');
}

/** The fault an error stands for; null for anything else (a bug, left to the SDK's handling). */
export function faultOf(err: unknown, serviceUrl: string): Fault | null {
  if (err instanceof MmApiError)
    return {
      code: err.code,
      message: err.code === 'VALIDATION' ? inToolTerms(err.message) : err.message,
      ...(err.details ? { details: err.details } : {}),
      ...(err.retryAfterSeconds !== undefined ? { retryAfterSeconds: err.retryAfterSeconds } : {}),
    };
  if (err instanceof MmTransportError) return unreachable(serviceUrl, err);
  if (err instanceof ToolInputError) return { code: 'VALIDATION', message: err.message };
  return null;
}

/** The service could not be asked at all: names the URL and the network's reason (ECONNREFUSED, ENOTFOUND...). */
export function unreachable(serviceUrl: string, err: unknown): Fault {
  return { code: 'UNREACHABLE', message: `cannot reach the service at ${serviceUrl}: ${transportCause(err).message}` };
}

/** `CODE: message {details} Retry after N seconds.` */
export function faultText(f: Fault): string {
  return [
    `${f.code}: ${f.message}`,
    f.details ? JSON.stringify(f.details) : '',
    f.retryAfterSeconds !== undefined ? `Retry after ${f.retryAfterSeconds} seconds.` : '',
  ]
    .filter(Boolean)
    .join(' ');
}

/**
 * A JSON-RPC error whose message goes out as written. The SDK's McpError puts "MCP error <code>: "
 * in its message and the client adds it again; the protocol layer reads only `code`, `message`, `data`.
 */
export class ProtocolError extends Error {
  constructor(
    readonly code: number,
    message: string,
    readonly data?: unknown,
  ) {
    super(message);
  }
}

/** The MCP spec's code for a resource that does not exist (resources, error handling). */
const RESOURCE_NOT_FOUND = -32002;

/** A fault of a resource read or listing, as a protocol error carrying the fault as its data. */
export function resourceError(f: Fault): ProtocolError {
  if (f.code === 'NOT_FOUND') return new ProtocolError(RESOURCE_NOT_FOUND, faultText(f), f);
  const code = f.code === 'UNREACHABLE' ? ErrorCode.InternalError : ErrorCode.InvalidParams;
  return new ProtocolError(code, faultText(f), f);
}
