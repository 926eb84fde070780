import createClient, { type Client } from 'openapi-fetch';
import type { components, operations, paths } from './generated/openapi';
import { apiRoot, sendWithRetry } from './http';
import { DEFAULT_RETRY, type RetryPolicy } from './domain/retry-policy';

type Json<O extends keyof operations, S extends number = 200> =
  operations[O]['responses'] extends Record<S, { content: { 'application/json': infer B } }> ? B : never;

export type WhoAmI = Json<'whoami'>;
export type RecordingStatus = Json<'getRecordingStatus'>;
export type RecordingPage = Json<'listReadyRecordings'>;
export type SearchPage = Json<'searchRecordings'>;
export type Bundle = Exclude<Json<'getRecordingBundle'>, string>;
export type AskAnswer = Json<'askRecording'>;
export type EventsPage = Json<'listEvents'>;
export type FeedEvent = EventsPage['events'][number];
export type SubmitResult = Json<'submitRecording', 202>;
export type Schemas = components['schemas'];

export interface ClientOptions {
  /** The gateway's URL or the API root (`…/api/v1`). */
  url: string;
  token: string;
  retry?: Partial<RetryPolicy>;
  /** The fetch to use (default: the global one). */
  fetch?: typeof fetch;
}

export interface AskInput {
  question: string;
  maxMinutes?: number;
  /** Made once per call when absent; send the same one to repeat a call whose reply was lost. */
  idempotencyKey?: string;
}

/**
 * The typed API client: each method is one operation of openapi.json, typed by the generated
 * `paths`; a failure throws MmApiError carrying the contract's code. Retries follow the contract
 * (see `retry-policy.ts`): GETs and keyed spending requests are repeated, others never.
 */
export class MeetingMemoryClient {
  readonly root: string;
  readonly api: Client<paths>;
  readonly policy: RetryPolicy;
  private readonly fetchFn: typeof fetch;

  constructor(readonly options: ClientOptions) {
    this.root = apiRoot(options.url);
    this.policy = { ...DEFAULT_RETRY, ...options.retry };
    this.fetchFn = options.fetch ?? globalThis.fetch;
    this.api = createClient<paths>({
      baseUrl: this.root,
      headers: { Authorization: `Bearer ${options.token}` },
      fetch: (req: Request) =>
        sendWithRetry(
          { method: req.method, headers: req.headers, signal: req.signal, send: () => this.fetchFn(req.clone()) },
          this.policy,
        ),
    });
  }

  /** A raw request under the API root with the token and the retry policy (non-JSON answers, new routes). */
  async raw(
    method: string,
    pathAndQuery: string,
    init: {
      headers?: Record<string, string>;
      body?: RequestInit['body'] | (() => RequestInit['body']);
      signal?: AbortSignal;
    } = {},
  ): Promise<Response> {
    const headers = new Headers({ Authorization: `Bearer ${this.options.token}`, ...init.headers });
    const url = `${this.root}${pathAndQuery}`;
    return sendWithRetry(
      {
        method,
        headers,
        signal: init.signal,
        send: () => {
          // A body factory gives each attempt a fresh stream (a stream is read once).
          const body = typeof init.body === 'function' ? init.body() : init.body;
          return this.fetchFn(url, {
            method,
            headers,
            body,
            signal: init.signal,
            ...(isStream(body) ? { duplex: 'half' } : {}),
          } as RequestInit);
        },
      },
      this.policy,
    );
  }

  async whoami(): Promise<WhoAmI> {
    return (await this.api.GET('/whoami')).data!;
  }

  async status(id: string, signal?: AbortSignal): Promise<RecordingStatus> {
    return (await this.api.GET('/recordings/{id}/status', { params: { path: { id } }, signal })).data!;
  }

  async listReady(query: operations['listReadyRecordings']['parameters']['query'] = {}): Promise<RecordingPage> {
    return (await this.api.GET('/recordings/ready', { params: { query } })).data!;
  }

  async search(query: NonNullable<operations['searchRecordings']['parameters']['query']>): Promise<SearchPage> {
    return (await this.api.GET('/recordings/search', { params: { query } })).data!;
  }

  async bundle(id: string): Promise<Bundle> {
    return (await this.api.GET('/recordings/{id}/bundle', { params: { path: { id } } })).data as Bundle;
  }

  /** The bundle as one Markdown document. */
  async bundleMarkdown(id: string): Promise<string> {
    return (await this.raw('GET', `/recordings/${encodeURIComponent(id)}/bundle?format=markdown`)).text();
  }

  async quoteRecordingAsk(id: string): Promise<number> {
    return (await this.api.GET('/recordings/{id}/ask/quote', { params: { path: { id } } })).data!.minutes;
  }

  async quoteSeriesAsk(id: string): Promise<{ minutes: number; meetingCount: number }> {
    return (await this.api.GET('/series/{id}/ask/quote', { params: { path: { id } } })).data!;
  }

  /** Asks one meeting; one Idempotency-Key for the call, resent on every retry (never charged twice). */
  async askRecording(id: string, input: AskInput): Promise<AskAnswer> {
    const key = input.idempotencyKey ?? newIdempotencyKey();
    const res = await this.api.POST('/recordings/{id}/ask', {
      params: { path: { id }, header: { 'Idempotency-Key': key } },
      body: { question: input.question, ...(input.maxMinutes !== undefined ? { maxMinutes: input.maxMinutes } : {}) },
    });
    return res.data!;
  }

  /** Asks a series (citations carry recordingId); same key rule as askRecording. */
  async askSeries(id: string, input: AskInput): Promise<Json<'askSeries'>> {
    const key = input.idempotencyKey ?? newIdempotencyKey();
    const res = await this.api.POST('/series/{id}/ask', {
      params: { path: { id }, header: { 'Idempotency-Key': key } },
      body: { question: input.question, ...(input.maxMinutes !== undefined ? { maxMinutes: input.maxMinutes } : {}) },
    });
    return res.data!;
  }

  async skipNaming(id: string): Promise<RecordingStatus> {
    return (await this.api.POST('/recordings/{id}/naming', { params: { path: { id } }, body: { action: 'skip' } }))
      .data!;
  }

  async retryRecording(id: string): Promise<RecordingStatus> {
    return (await this.api.POST('/recordings/{id}/retry', { params: { path: { id } } })).data!;
  }

  async listEvents(
    query: operations['listEvents']['parameters']['query'] = {},
    signal?: AbortSignal,
  ): Promise<EventsPage> {
    return (await this.api.GET('/events', { params: { query }, signal })).data!;
  }
}

/** A random Idempotency-Key (32 hex characters, inside the contract's 8 to 64). */
export function newIdempotencyKey(): string {
  return globalThis.crypto.randomUUID().replace(/-/g, '');
}

function isStream(body: unknown): boolean {
  return typeof body === 'object' && body !== null && typeof (body as ReadableStream).getReader === 'function';
}
