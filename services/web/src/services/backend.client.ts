import {
  forwardOf,
  operationOf,
  pathOf,
  serviceOf,
  type ForwardedOperationId,
  type ForwardedOperationInput,
  type OperationId,
  type OperationInput,
  type OperationOutput,
  type OperationSent,
} from '@mm/contract';
import { PRINCIPAL_HEADER } from '@mm/http';

/**
 * The path parameters of an operation as the app fills them: a forwarded admin operation (a
 * meeting change the gateway passes to recordings) is called where it is forwarded, with the
 * parameters of that path (the account id of the admin path is the principal's).
 */
type ParamsOf<Op extends OperationId> = Op extends ForwardedOperationId
  ? ForwardedOperationInput<Op>['params']
  : OperationInput<Op>['params'];

/** What a call of an operation sends: its path parameters, query, headers and body as the contract types them. */
export interface CallInput<Op extends OperationId> {
  params?: ParamsOf<Op>;
  query?: Partial<OperationInput<Op>['query']>;
  /** The operation's own header parameters (Idempotency-Key, Range), by their lower-case names. */
  headers?: Partial<OperationInput<Op>['headers']>;
  /** The body as a caller sends it: a field with a default may be left out. */
  body?: OperationSent<Op>;
}

/** An answer of the gateway or a service that was not a success: its status and the contract's code. */
export class BackendError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    /** The service's own message (English, the contract's envelope), when it sent one. */
    readonly detail: string | null = null,
  ) {
    super(`${status} ${code}`);
  }
}

type Urls = {
  gateway: string;
  recordings: string;
  series: string;
  account: string;
  ask: string;
  events: string;
};

/** How long a JSON answer may take, whole. */
const JSON_TIMEOUT_MS = 15_000;
/** How long a passed-on answer (audio, Markdown) may take to start; its body then streams as long as the reader reads. */
const STREAM_START_TIMEOUT_MS = 60_000;
/** How long an upload may take (the whole file goes to recordings in one request). */
const UPLOAD_TIMEOUT_MS = 600_000;

/**
 * The app's one way to the owning services (and to the gateway for what it owns: tokens, developer
 * mode, sessions): HTTP with the signed principal the gateway gave this request. Every call names
 * an operation of the contract's tables (public, admin, the app's): service, method and path come
 * from the table, so the app spells no path (tests/contract/mounted-by-operation.test.ts). The app
 * holds no rule of its own; it shows what they answer.
 */
export class Backend {
  readonly #urls: Urls;
  constructor(urls: Urls) {
    this.#urls = urls;
  }

  /** One operation, by its operationId; the answer (JSON) typed as the operation's output. */
  async operation<Op extends OperationId>(
    operationId: Op,
    principal: string,
    input: CallInput<Op> = {},
  ): Promise<OperationOutput<Op>> {
    const res = await this.#send(operationId, principal, input, {
      body: input.body === undefined ? undefined : JSON.stringify(input.body),
      contentType: input.body === undefined ? undefined : 'application/json',
      signal: AbortSignal.timeout(JSON_TIMEOUT_MS),
    });
    const text = await res.text();
    if (!res.ok) {
      let code = 'INTERNAL_ERROR';
      let detail: string | null = null;
      try {
        const error = (JSON.parse(text) as { error?: { code?: string; message?: string } }).error;
        code = error?.code ?? code;
        detail = typeof error?.message === 'string' ? error.message : null;
      } catch {
        code = res.status === 404 ? 'NOT_FOUND' : code;
      }
      throw new BackendError(res.status, code, detail);
    }
    return JSON.parse(text) as OperationOutput<Op>;
  }

  /**
   * One operation's answer as it is (audio, a Markdown bundle), for the caller to pass on: its
   * status, headers and a body not read yet. The answer must start within a minute; its body then
   * streams for as long as the caller reads it (`signal` ends it, e.g. when the browser leaves).
   */
  async stream<Op extends OperationId>(
    operationId: Op,
    principal: string,
    input: Omit<CallInput<Op>, 'body'> = {},
    signal?: AbortSignal,
  ): Promise<Response> {
    const ends = new AbortController();
    const timer = setTimeout(() => ends.abort(new Error('no answer in time')), STREAM_START_TIMEOUT_MS);
    const end = () => ends.abort(signal?.reason);
    signal?.addEventListener('abort', end, { once: true });
    try {
      return await this.#send(operationId, principal, input, { signal: ends.signal });
    } finally {
      clearTimeout(timer);
    }
  }

  /**
   * An upload made in the app (adminSubmitRecording, where the gateway forwards it): the multipart
   * body POST /recordings takes, with the Idempotency-Key the page made; the answer as it is.
   */
  upload(principal: string, idempotencyKey: string, form: FormData): Promise<Response> {
    return this.#send(
      'adminSubmitRecording',
      principal,
      { headers: { 'idempotency-key': idempotencyKey } },
      { body: form, signal: AbortSignal.timeout(UPLOAD_TIMEOUT_MS) },
    );
  }

  /** The request of an operation: where it is answered (the table's path, or its `forward`), with the principal. */
  #send<Op extends OperationId>(
    operationId: Op,
    principal: string,
    input: Omit<CallInput<Op>, 'body'>,
    how: { body?: string | FormData; contentType?: string; signal: AbortSignal },
  ): Promise<Response> {
    const op = operationOf(operationId);
    const forward = forwardOf(operationId);
    const service = forward?.service ?? serviceOf(operationId);
    const query = new URLSearchParams();
    for (const [k, v] of Object.entries(input.query ?? {})) if (v !== undefined) query.set(k, String(v));
    const path = `${pathOf(forward?.path ?? op.path, input.params ?? {})}${query.size ? `?${query}` : ''}`;
    const headers: Record<string, string> = { [PRINCIPAL_HEADER]: principal };
    for (const [k, v] of Object.entries(input.headers ?? {})) if (typeof v === 'string') headers[k] = v;
    if (how.contentType) headers['content-type'] = how.contentType;
    return fetch(`${this.#urls[service]}${path}`, {
      method: op.method.toUpperCase(),
      headers,
      body: how.body,
      signal: how.signal,
    });
  }
}
