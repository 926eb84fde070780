import createClient, { type Client } from 'openapi-fetch';
import type { paths } from './generated/openapi';
import { DIGEST_SECTION_KINDS } from './generated/catalog';
import { apiRoot, sendWithRetry } from './http';
import { DEFAULT_RETRY, type RetryPolicy } from './domain/retry-policy';
import type * as T from './types';

export * from './types';

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

type Id = { params: { path: { id: string } } };
const byId = (id: string): Id => ({ params: { path: { id } } });

/**
 * The typed API client: one method per operation of openapi.json, typed by the generated `paths`;
 * a failure throws MmApiError carrying the contract's code, a request that got no answer
 * MmTransportError naming the URL and the network's reason. Retries follow the contract (see
 * `retry-policy.ts`): GETs and keyed spending requests are repeated, others never.
 */
export class MeetingMemoryClient {
  readonly root: string;
  readonly policy: RetryPolicy;
  private readonly api: Client<paths>;
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
          {
            method: req.method,
            url: req.url,
            headers: req.headers,
            signal: req.signal,
            send: () => this.fetchFn(req.clone()),
          },
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
        url,
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

  // Recordings

  async whoami(): Promise<T.WhoAmI> {
    return (await this.api.GET('/whoami')).data!;
  }

  async status(id: string, signal?: AbortSignal): Promise<T.RecordingStatus> {
    return (await this.api.GET('/recordings/{id}/status', { ...byId(id), signal })).data!;
  }

  async listReady(query: T.Query<'listReadyRecordings'> = {}): Promise<T.RecordingPage> {
    return (await this.api.GET('/recordings/ready', { params: { query } })).data!;
  }

  async search(query: T.Query<'searchRecordings'>): Promise<T.SearchPage> {
    return (await this.api.GET('/recordings/search', { params: { query } })).data!;
  }

  /** The whole meeting; digest sections of kinds this version does not know are left out (contract). */
  async bundle(id: string): Promise<T.Bundle> {
    const b = (await this.api.GET('/recordings/{id}/bundle', byId(id))).data as T.Bundle;
    const known = (s: { kind: string }) => (DIGEST_SECTION_KINDS as readonly string[]).includes(s.kind);
    b.digest.content = b.digest.content.filter(known);
    if (Array.isArray(b.digest.sections)) b.digest.sections = b.digest.sections.filter(known);
    return b;
  }

  /** The bundle as one Markdown document. */
  async bundleMarkdown(id: string): Promise<string> {
    return (await this.raw('GET', `/recordings/${encodeURIComponent(id)}/bundle?format=markdown`)).text();
  }

  async skipNaming(id: string): Promise<T.RecordingStatus> {
    return (await this.api.POST('/recordings/{id}/naming', { ...byId(id), body: { action: 'skip' } })).data!;
  }

  async retryRecording(id: string): Promise<T.RecordingStatus> {
    return (await this.api.POST('/recordings/{id}/retry', byId(id))).data!;
  }

  async listEvents(query: T.Query<'listEvents'> = {}, signal?: AbortSignal): Promise<T.EventsPage> {
    return (await this.api.GET('/events', { params: { query }, signal })).data!;
  }

  // Ask

  async quoteRecordingAsk(id: string): Promise<number> {
    return (await this.api.GET('/recordings/{id}/ask/quote', byId(id))).data!.minutes;
  }

  async quoteSeriesAsk(id: string): Promise<{ minutes: number; meetingCount: number }> {
    return (await this.api.GET('/series/{id}/ask/quote', byId(id))).data!;
  }

  /** Asks one meeting; one Idempotency-Key for the call, resent on every retry (never charged twice). */
  async askRecording(id: string, input: AskInput): Promise<T.AskAnswer> {
    const key = input.idempotencyKey ?? newIdempotencyKey();
    const res = await this.api.POST('/recordings/{id}/ask', {
      params: { path: { id }, header: { 'Idempotency-Key': key } },
      body: { question: input.question, ...(input.maxMinutes !== undefined ? { maxMinutes: input.maxMinutes } : {}) },
    });
    return res.data!;
  }

  /** Asks a series (citations carry recordingId); same key rule as askRecording. */
  async askSeries(id: string, input: AskInput): Promise<T.SeriesAskAnswer> {
    const key = input.idempotencyKey ?? newIdempotencyKey();
    const res = await this.api.POST('/series/{id}/ask', {
      params: { path: { id }, header: { 'Idempotency-Key': key } },
      body: { question: input.question, ...(input.maxMinutes !== undefined ? { maxMinutes: input.maxMinutes } : {}) },
    });
    return res.data!;
  }

  // Series

  async listSeries(): Promise<T.SeriesList> {
    return (await this.api.GET('/series/readable')).data!;
  }

  async getSeries(id: string): Promise<T.SeriesAnswer> {
    return (await this.api.GET('/series/{id}', byId(id))).data!;
  }

  async createSeries(input: T.CreateSeriesInput): Promise<T.SeriesAnswer> {
    return (await this.api.POST('/series', { body: input })).data! as T.SeriesAnswer;
  }

  async updateSeries(id: string, input: T.UpdateSeriesInput): Promise<T.SeriesAnswer> {
    return (await this.api.PATCH('/series/{id}', { ...byId(id), body: input })).data!;
  }

  async getSeriesKeyterms(id: string): Promise<T.SeriesKeyterms> {
    return (await this.api.GET('/series/{id}/keyterms', byId(id))).data!;
  }

  async replaceSeriesKeyterms(id: string, input: T.SeriesKeytermsInput): Promise<T.SeriesKeyterms> {
    return (await this.api.PUT('/series/{id}/keyterms', { ...byId(id), body: input })).data!;
  }

  // Account

  async getAccount(): Promise<T.Account> {
    return (await this.api.GET('/account')).data!;
  }

  async updateAccountSettings(input: T.AccountSettingsInput): Promise<T.Account> {
    return (await this.api.PATCH('/account/settings', { body: input })).data!;
  }

  async getAccountKeyterms(): Promise<T.AccountKeyterms> {
    return (await this.api.GET('/account/keyterms')).data!;
  }

  async replaceAccountKeyterms(keyterms: string[]): Promise<T.AccountKeyterms> {
    return (await this.api.PUT('/account/keyterms', { body: { keyterms } })).data!;
  }

  async listMemory(): Promise<T.MemoryList> {
    return (await this.api.GET('/account/memory')).data!;
  }

  async updateMemoryItem(id: string, text: string): Promise<T.MemoryItemAnswer> {
    return (await this.api.PATCH('/account/memory/{id}', { ...byId(id), body: { text } })).data!;
  }

  async deleteMemoryItem(id: string): Promise<void> {
    await this.api.DELETE('/account/memory/{id}', byId(id));
  }
}

/** A random Idempotency-Key (32 hex characters, inside the contract's 8 to 64). */
export function newIdempotencyKey(): string {
  return globalThis.crypto.randomUUID().replace(/-/g, '');
}

function isStream(body: unknown): boolean {
  return typeof body === 'object' && body !== null && typeof (body as ReadableStream).getReader === 'function';
}
