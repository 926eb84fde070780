import request from 'supertest';
import type { Running } from '@mm/http';
import { loadConfig as gatewayConfig, type GatewayConfig } from '../../services/gateway/src/config';
import { startGateway } from '../../services/gateway/src/main';
import { loadConfig as accountConfig } from '../../services/account/src/config';
import { startAccount } from '../../services/account/src/main';
import { loadConfig as seriesConfig } from '../../services/series/src/config';
import { startSeries } from '../../services/series/src/main';
import { loadConfig as eventsConfig } from '../../services/events/src/config';
import { startEvents } from '../../services/events/src/main';
import { loadConfig as recordingsConfig } from '../../services/recordings/src/config';
import { startRecordings } from '../../services/recordings/src/main';
import { loadConfig as askConfig } from '../../services/ask/src/config';
import { startAsk } from '../../services/ask/src/main';
import { loadConfig as webConfig } from '../../services/web/src/config';
import { startWeb } from './web-app';
import { mkdtempSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { connectBus, dropNamespace, request as busRequest, type Bus, type RequestOptions } from '@mm/bus';
import type { RequestEntry } from '@mm/contract';
import { ensureDatabase } from '@mm/db';
import { Client } from 'pg';
import { startS3Server, type S3Server } from './s3';
import { migrateAll } from './migrate';
import { tmpdir } from 'node:os';
import path from 'node:path';

export const ADMIN_KEY = 'test-admin-key';

export interface Stack {
  /** The gateway's base URL (no trailing slash). */
  url: string;
  api: ReturnType<typeof request>;
  /** The audio store (`file:` directory, or `s3://` URL with `opts.store: 's3'`), shared by recordings and pipeline. */
  audioStore: string;
  /** The environment the services were started with (to start another process alike). */
  env: NodeJS.ProcessEnv;
  /** Prefix of this stack's NATS subjects (`t1a2b3c4d5.`): put it before a subject to reach its services. */
  busNamespace: string;
  /** The NATS server the services use (tests reach internal request subjects through it). */
  natsUrl: string;
  /** Where the gateway reaches each service (to start another gateway replica in front of them). */
  serviceUrls: GatewayConfig['serviceUrls'];
  stop(): Promise<void>;
  admin: AdminClient;
  /** A NATS request to this stack's services (its own namespace: no other stack answers), as the operator. */
  request<P, R>(entry: RequestEntry<P, R>, payload: P, opts?: RequestOptions): Promise<R>;
  /** Each service, to stop one alone (a shutdown test). */
  services: Record<string, Running>;
}

/**
 * Starts the services in this process on free ports, wired like production: the gateway in
 * front, real Postgres, Redis and NATS behind. `env` overrides configuration (rate budgets, limits);
 * `askEnv` overrides it for the ask service alone (its engine, without changing the digest engine).
 */
export async function startStack(
  env: Record<string, string> = {},
  opts: {
    pipeline?: boolean;
    askEnv?: Record<string, string>;
    store?: 'file' | 's3';
    /** Each service's DATABASE_URL on a database made and migrated by the caller (its own role each); kept at stop. */
    databaseUrls?: Record<string, string>;
  } = {},
): Promise<Stack> {
  // Each stack has its own NATS namespace: no other stack (or a dev stack) answers its requests or takes its jobs.
  const busNamespace = `t${randomBytes(5).toString('hex')}.`;
  // `s3`: a real S3-protocol server of the stack's own, stopped with it.
  const s3: S3Server | null = opts.store === 's3' ? await startS3Server() : null;
  const storeEnv: Record<string, string> = s3
    ? s3.env(busNamespace.slice(0, -1))
    : { AUDIO_STORE: `file:${mkdtempSync(path.join(tmpdir(), 'mm-store-'))}` };
  const audioStore = storeEnv.AUDIO_STORE_URL ?? storeEnv.AUDIO_STORE;
  // ... and its own database: an outbox relay publishes every unpublished row of its schema, so
  // stacks sharing a database would publish each other's work into their own namespace.
  const databaseUrl = stackDatabaseUrl(busNamespace);
  if (!opts.databaseUrls) {
    await ensureDatabase(databaseUrl);
    // The services' start only checks its schema: the migration step runs first, as in production.
    await migrateAll(databaseUrl);
  }
  const base: NodeJS.ProcessEnv = {
    ...process.env,
    LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'silent',
    ADMIN_API_KEY: ADMIN_KEY,
    ...storeEnv,
    BUS_NAMESPACE: busNamespace,
    DATABASE_URL: databaseUrl,
    ...env,
  };
  const envOf = (service: string): NodeJS.ProcessEnv =>
    opts.databaseUrls ? { ...base, DATABASE_URL: opts.databaseUrls[service] } : base;
  const running: Running[] = [];
  const account = await startAccount({ ...accountConfig(envOf('account')), port: 0 });
  running.push(account);
  const series = await startSeries({ ...seriesConfig(envOf('series')), port: 0 });
  running.push(series);
  const events = await startEvents({ ...eventsConfig(envOf('events')), port: 0 });
  running.push(events);
  const recordings = await startRecordings({ ...recordingsConfig(envOf('recordings')), port: 0 });
  running.push(recordings);
  const ask = await startAsk({ ...askConfig({ ...envOf('ask'), ...opts.askEnv }), port: 0 });
  running.push(ask);
  let pipeline: Running | undefined;
  if (opts.pipeline) {
    // Loaded only when asked for: most tests need no engines.
    const { loadConfig } = await import('../../services/pipeline/src/config');
    const { startPipeline } = await import('../../services/pipeline/src/main');
    pipeline = await startPipeline({ ...loadConfig(envOf('pipeline')), port: 0 });
    running.push(pipeline);
  }
  const cfg = gatewayConfig(envOf('gateway'));
  const serviceUrls = {
    ...cfg.serviceUrls,
    account: `http://127.0.0.1:${account.port}`,
    series: `http://127.0.0.1:${series.port}`,
    recordings: `http://127.0.0.1:${recordings.port}`,
    ask: `http://127.0.0.1:${ask.port}`,
    events: `http://127.0.0.1:${events.port}`,
  };
  const gateway = await startGateway({ ...cfg, port: 0, serviceUrls });
  running.push(gateway);
  const url = `http://127.0.0.1:${gateway.port}`;
  // The app and the gateway each call the other: the app starts once the gateway's port is known,
  // and the gateway reads the app's address at each request (app-door.routes.ts).
  const web = await startWeb({ ...webConfig(envOf('web')), port: 0, serviceUrls: { ...serviceUrls, gateway: url } });
  running.splice(running.length - 1, 0, web);
  serviceUrls.web = `http://127.0.0.1:${web.port}`;
  const services: Record<string, Running> = {
    account,
    series,
    events,
    recordings,
    ask,
    gateway,
    web,
    ...(pipeline ? { pipeline } : {}),
  };
  let testBus: Promise<Bus> | undefined;
  const api = request(url);
  return {
    url,
    api,
    natsUrl: cfg.natsUrl,
    serviceUrls,
    audioStore,
    env: base,
    admin: new AdminClient(url),
    busNamespace,
    services,
    request: async <P, R>(entry: RequestEntry<P, R>, payload: P, opts?: RequestOptions) => {
      testBus ??= connectBus(cfg.natsUrl, 'operator', busNamespace, { internalSecret: cfg.internalJwtSecret });
      return busRequest((await testBus).nc, entry, payload, opts);
    },
    stop: async () => {
      if (testBus) await (await testBus).close();
      for (const r of running.reverse()) await r.close();
      const bus = await connectBus(cfg.natsUrl, 'operator', busNamespace);
      await dropNamespace(bus);
      await bus.close();
      if (!opts.databaseUrls) await dropDatabase(databaseUrl);
      await s3?.stop();
    },
  };
}

/** A database of its own for a stack, next to the run's test database. */
function stackDatabaseUrl(namespace: string): string {
  const url = new URL(process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/meeting_memory_test');
  url.pathname = `/${url.pathname.slice(1)}_${namespace.replace(/\W/g, '')}`;
  return url.toString();
}

/** Drops a database made for one test (connections forced out). */
export async function dropDatabase(databaseUrl: string): Promise<void> {
  const url = new URL(databaseUrl);
  const name = url.pathname.slice(1);
  url.pathname = '/postgres';
  const client = new Client({ connectionString: url.toString() });
  await client.connect();
  await client.query(`drop database if exists "${name}" with (force)`);
  await client.end();
}

export interface TestAccount {
  id: string;
  displayName: string | null;
}

export interface TestToken {
  id: string;
  value: string;
}

/** The admin API, as tests outside the project use it (ARCHITECTURE.md section 7). */
export class AdminClient {
  private readonly api: ReturnType<typeof request>;
  constructor(url: string) {
    this.api = request(url);
  }

  private auth = { Authorization: `Bearer ${ADMIN_KEY}` };

  async account(body: Record<string, unknown> = {}): Promise<TestAccount> {
    const res = await this.api
      .post('/admin/v1/accounts')
      .set(this.auth)
      .send({ developerMode: true, balanceMinutes: 1000, ...body });
    if (res.status !== 201) throw new Error(`account: ${res.status} ${JSON.stringify(res.body)}`);
    return res.body.account;
  }

  async patchAccount(id: string, body: Record<string, unknown>) {
    const res = await this.api.patch(`/admin/v1/accounts/${id}`).set(this.auth).send(body);
    if (res.status !== 200) throw new Error(`patch: ${res.status} ${JSON.stringify(res.body)}`);
    return res.body.account;
  }

  async token(accountId: string, scopes: string[], extra: Record<string, unknown> = {}): Promise<TestToken> {
    const res = await this.api
      .post(`/admin/v1/accounts/${accountId}/tokens`)
      .set(this.auth)
      .send({ name: 'test', scopes, ...extra });
    if (res.status !== 201) throw new Error(`token: ${res.status} ${JSON.stringify(res.body)}`);
    return { id: res.body.token.id, value: res.body.value };
  }

  /** An invite link to the app (ARCHITECTURE.md section 7): the person sets a password with it. */
  async invite(accountId: string, email?: string): Promise<{ url: string; expiresAt: string }> {
    const res = await this.api
      .post(`/admin/v1/accounts/${accountId}/invites`)
      .set(this.auth)
      .send(email === undefined ? {} : { email });
    if (res.status !== 201) throw new Error(`invite: ${res.status} ${JSON.stringify(res.body)}`);
    return res.body.invite;
  }

  async revoke(tokenId: string) {
    return this.api.delete(`/admin/v1/tokens/${tokenId}`).set(this.auth);
  }

  async flags(tokensDisabled: boolean) {
    return this.api.put('/admin/v1/flags').set(this.auth).send({ tokensDisabled });
  }

  async addSeriesMember(seriesId: string, accountId: string) {
    return this.api.post(`/admin/v1/series/${seriesId}/members`).set(this.auth).send({ accountId });
  }

  async minutes(accountId: string, minutes: number) {
    return this.api.post(`/admin/v1/accounts/${accountId}/minutes`).set(this.auth).send({ minutes });
  }

  raw() {
    return { api: this.api, auth: this.auth };
  }
}
