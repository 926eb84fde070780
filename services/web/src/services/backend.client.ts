import {
  operationOf,
  pathOf,
  serviceOf,
  type OperationId,
  type OperationInput,
  type OperationOutput,
} from '@mm/contract';
import { PRINCIPAL_HEADER } from '@mm/http';

/** What a call of an operation sends: its path parameters, query and body as the contract types them. */
export interface CallInput<Op extends OperationId> {
  params?: OperationInput<Op>['params'];
  query?: Partial<OperationInput<Op>['query']>;
  body?: OperationInput<Op>['body'];
}

/** An answer of the gateway or a service that was not a success: its status and the contract's code. */
export class BackendError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
  ) {
    super(`${status} ${code}`);
  }
}

/**
 * The app's one way to the owning services (and to the gateway for what it owns: tokens, developer
 * mode, sessions): HTTP with the signed principal the gateway gave this request. The app holds no
 * rule of its own; it shows what they answer.
 */
export class Backend {
  constructor(
    private readonly urls: {
      gateway: string;
      recordings: string;
      series: string;
      account: string;
      ask: string;
      events: string;
    },
  ) {}

  /**
   * One operation of the contract's tables, by its operationId: the service, method and path come
   * from the table (the app spells none), the answer is typed as the operation's output.
   */
  operation<Op extends OperationId>(
    operationId: Op,
    principal: string,
    input: CallInput<Op> = {},
  ): Promise<OperationOutput<Op>> {
    const op = operationOf(operationId);
    const service = serviceOf(operationId);
    const query = new URLSearchParams();
    for (const [k, v] of Object.entries(input.query ?? {})) if (v !== undefined) query.set(k, String(v));
    const path = `${pathOf(op, input.params ?? {})}${query.size ? `?${query}` : ''}`;
    return this.call<OperationOutput<Op>>(service, principal, op.method.toUpperCase(), path, input.body);
  }

  async call<T>(
    service: keyof Backend['urls'],
    principal: string,
    method: string,
    path: string,
    body?: unknown,
    headers: Record<string, string> = {},
  ): Promise<T> {
    const res = await fetch(`${this.urls[service]}${path}`, {
      method,
      headers: {
        ...headers,
        [PRINCIPAL_HEADER]: principal,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
      signal: AbortSignal.timeout(15_000),
    });
    const text = await res.text();
    if (!res.ok) {
      let code = 'INTERNAL_ERROR';
      try {
        code = (JSON.parse(text) as { error?: { code?: string } }).error?.code ?? code;
      } catch {
        code = res.status === 404 ? 'NOT_FOUND' : code;
      }
      throw new BackendError(res.status, code);
    }
    return JSON.parse(text) as T;
  }

  /**
   * An upload made in the app: the multipart body POST /recordings takes, sent to the recordings
   * service's app route with the Idempotency-Key the page made; the answer as it is.
   */
  upload(principal: string, idempotencyKey: string, form: FormData): Promise<Response> {
    return fetch(`${this.urls.recordings}/internal/admin/recordings`, {
      method: 'POST',
      headers: { [PRINCIPAL_HEADER]: principal, 'idempotency-key': idempotencyKey },
      body: form,
      signal: AbortSignal.timeout(600_000),
    });
  }

  /** The service's answer as it is (audio, Markdown): the caller passes its status, headers and body on. */
  raw(
    service: keyof Backend['urls'],
    principal: string,
    path: string,
    headers: Record<string, string> = {},
  ): Promise<Response> {
    return fetch(`${this.urls[service]}${path}`, {
      headers: { [PRINCIPAL_HEADER]: principal, ...headers },
      signal: AbortSignal.timeout(60_000),
    });
  }
}
