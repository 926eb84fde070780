import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { connect, JSONCodec, type NatsConnection } from 'nats';
import {
  connectBus,
  natsCredentials,
  request,
  RemoteError,
  serve,
  servicePermissions,
  setupBus,
  type Bus,
} from '@mm/bus';
import { BUS, BUS_ENTRIES, BUS_SERVICES } from '@mm/contract';
import { EnvReader, readCommonConfig, signPrincipal, principalKey, type Principal } from '@mm/http';
import { startBroker, type Broker } from '../../deploy/nats-broker';
import { deployedNatsConfig, NATS_CONF } from '../../deploy/nats-config';

const NATS_BIN = ['/usr/sbin/nats-server', '/usr/bin/nats-server'].find(existsSync) ?? 'nats-server';

/**
 * NATS runs with one user per service and the permissions the bus table gives it. A broker of
 * this file's own, with the same generated configuration as the suite's (subjects without a
 * namespace, as in production): one service's credentials cannot reach another's subjects, a
 * wrong password gets no connection, and a request made for a caller is refused unless the
 * caller comes signed.
 */
let broker: Broker;
beforeAll(async () => {
  broker = await startBroker({ dir: path.join(mkdtempSync(path.join(tmpdir(), 'mm-nats-auth-')), 'broker') });
  // The setup step (streams), as the operator: no service may make or change a stream.
  await setupBus(broker.url, '', natsCredentials('operator', broker.env));
}, 30_000);
afterAll(async () => {
  await broker.stop();
});

const as = (user: string, pass = broker.env[`NATS_PASSWORD_${user.toUpperCase()}`]) =>
  connect({ servers: broker.url, user, pass, inboxPrefix: `_INBOX_${user}` });

/** What the server answers a publish (as a request): its refusal, or the error of a permitted subject nobody serves. */
async function publishAnswer(nc: NatsConnection, subject: string): Promise<string> {
  return String(await nc.request(subject, JSONCodec().encode({}), { timeout: 1000 }).catch((e: unknown) => e));
}

/**
 * What the server answers a subscription: `refused` when it reports a permissions violation and
 * the subscription is closed, null while it stays open.
 */
async function subscribeAnswer(nc: NatsConnection, subject: string): Promise<string | null> {
  let violation = false;
  const watch = (async () => {
    for await (const s of nc.status())
      if (s.type === 'error' && String(s.data) === 'PERMISSIONS_VIOLATION') violation = true;
  })();
  const sub = nc.subscribe(subject);
  const closed = await Promise.race([
    sub.closed.then(() => true),
    new Promise<false>((r) => setTimeout(() => r(false), 1000)),
  ]);
  sub.unsubscribe();
  await new Promise((r) => setTimeout(r, 100));
  void watch;
  return closed && violation ? 'refused' : null;
}

describe('NATS permissions generated from the bus table', () => {
  it('gives each service exactly its rows: it asks what it uses, serves what it owns, nothing else', () => {
    const ask = servicePermissions('ask');
    expect(ask.publish.allow).toContain(BUS.walletCharge.subject);
    expect(ask.publish.allow).toContain(BUS.askMeeting.subject);
    expect(ask.publish.allow).not.toContain(BUS.walletCredit.subject);
    // It serves one request: the trash's purge asks it to forget a meeting's questions.
    expect(ask.subscribe.allow).toEqual(['_INBOX_ask.>', BUS.askForgetMeeting.subject]);
    expect(ask.allow_responses).toBe(true);
    const account = servicePermissions('account');
    expect(account.subscribe.allow).toEqual(expect.arrayContaining([BUS.walletCredit.subject, BUS.walletHold.subject]));
    expect(account.allow_responses).toBe(true);
    // Nobody but the table's publishers may write a fact or a job.
    for (const e of BUS_ENTRIES.filter((x) => x.kind !== 'request')) {
      const publishers = BUS_SERVICES.filter(
        (s) => s !== 'gateway' && servicePermissions(s).publish.allow.includes(e.subject),
      );
      expect([e.name, publishers.sort()]).toEqual([
        e.name,
        (e.kind === 'fact' ? [e.owner] : [...e.users]).filter((s) => s !== 'gateway').sort(),
      ]);
    }
  });

  it("refuses a service's credentials on another service's subjects, publish and subscribe alike", async () => {
    const ask = await as('ask');
    const series = await as('series');
    try {
      // Minting minutes: only the gateway may ask account.wallet.credit.
      expect(await publishAnswer(ask, BUS.walletCredit.subject)).toMatch(/Permissions Violation for Publish/);
      // Reading transcripts by serving the recordings service's subject.
      expect(await subscribeAnswer(ask, BUS.askMeeting.subject)).toBe('refused');
      // Forging a pipeline result, and reading another user's replies.
      expect(await publishAnswer(series, BUS.jobTranscribed.subject)).toMatch(/Permissions Violation for Publish/);
      expect(await subscribeAnswer(series, '_INBOX_ask.>')).toBe('refused');
      // What the table gives is allowed (nobody serves it on this broker: no responders).
      expect(await publishAnswer(series, BUS.seriesStats.subject)).toMatch(/503|no responders/i);
      expect(await subscribeAnswer(series, BUS.seriesResolve.subject)).toBeNull();
    } finally {
      await ask.close();
      await series.close();
    }
  });

  it('ships deploy/nats/nats.conf as the table generates it, and nats-server takes it with the passwords from its environment', () => {
    expect(readFileSync(NATS_CONF, 'utf8')).toBe(deployedNatsConfig());
    const env = {
      ...process.env,
      ...Object.fromEntries([...BUS_SERVICES, 'operator'].map((u) => [`NATS_PASSWORD_${u.toUpperCase()}`, `pw-${u}`])),
    };
    const ok = spawnSync(NATS_BIN, ['-c', NATS_CONF, '-t'], { env, encoding: 'utf8' });
    expect(`${ok.stdout}${ok.stderr}`).toMatch(/is valid/);
    const missing = spawnSync(NATS_BIN, ['-c', NATS_CONF, '-t'], { env: { PATH: process.env.PATH }, encoding: 'utf8' });
    expect(`${missing.stdout}${missing.stderr}`).toMatch(/NATS_PASSWORD_GATEWAY/);
  });

  it('gives each service JetStream rights on its own streams and durables only, and no stream changes', () => {
    for (const service of BUS_SERVICES) {
      const allow = servicePermissions(service).publish.allow;
      expect([service, allow.filter((a) => a.startsWith('$JS.') && /[>*]/.test(a.replace(/\.>$/, '')))]).toEqual([
        service,
        [],
      ]);
      expect(allow.filter((a) => /^\$JS\.API\.STREAM\.(CREATE|UPDATE|DELETE|PURGE)/.test(a))).toEqual([]);
      expect(servicePermissions(service).publish.deny).toEqual(
        expect.arrayContaining(['$JS.API.STREAM.UPDATE.*', '$JS.API.STREAM.CREATE.*']),
      );
    }
    const events = servicePermissions('events').publish.allow.filter((a) => a.startsWith('$JS.'));
    expect(events).toEqual(
      [
        '$JS.API.INFO',
        '$JS.API.STREAM.INFO.DEADLETTER',
        '$JS.API.STREAM.INFO.RECORDINGS',
        '$JS.API.CONSUMER.CREATE.RECORDINGS.events',
        '$JS.API.CONSUMER.CREATE.RECORDINGS.events.>',
        '$JS.API.CONSUMER.DURABLE.CREATE.RECORDINGS.events',
        '$JS.API.CONSUMER.INFO.RECORDINGS.events',
        '$JS.API.CONSUMER.MSG.NEXT.RECORDINGS.events',
        '$JS.ACK.RECORDINGS.events.>',
      ].sort(),
    );
  });

  it("refuses a service's credentials on another service's durables and streams, and on any stream change", async () => {
    const events = await as('events');
    try {
      const denied = /Permissions Violation for Publish/;
      // Reading another service's work, or every tenant's events under a durable of its own making.
      expect(await publishAnswer(events, '$JS.API.CONSUMER.CREATE.PIPELINE.recordings-results')).toMatch(denied);
      expect(await publishAnswer(events, '$JS.API.CONSUMER.MSG.NEXT.RECORDINGS.account-digests')).toMatch(denied);
      expect(await publishAnswer(events, '$JS.API.CONSUMER.CREATE.RECORDINGS.spy')).toMatch(denied);
      expect(await publishAnswer(events, '$JS.API.CONSUMER.DELETE.RECORDINGS.events')).toMatch(denied);
      // Shrinking or dropping a stream.
      expect(await publishAnswer(events, '$JS.API.STREAM.UPDATE.RECORDINGS')).toMatch(denied);
      expect(await publishAnswer(events, '$JS.API.STREAM.CREATE.RECORDINGS')).toMatch(denied);
      // Its own durable and streams answer (JetStream's own reply, not a refusal).
      expect(await publishAnswer(events, '$JS.API.CONSUMER.INFO.RECORDINGS.events')).not.toMatch(denied);
      expect(await publishAnswer(events, '$JS.API.STREAM.INFO.RECORDINGS')).not.toMatch(denied);
    } finally {
      await events.close();
    }
    // A service's connection does not make streams: it waits for the setup step, then says which to run.
    const fresh = connectBus(broker.url, 'recordings', 'fresh.', {
      ...natsCredentials('recordings', broker.env),
      streamWaitMs: 500,
    });
    await expect(fresh).rejects.toThrow(/run the bus setup step/);
  });

  it('makes NATS authentication mandatory under NODE_ENV=production', () => {
    const base = {
      NODE_ENV: 'production',
      DATABASE_URL: 'postgres://x@127.0.0.1/x',
      NATS_URL: 'nats://127.0.0.1:4222',
      INTERNAL_JWT_SECRET: randomBytes(32).toString('hex'),
    };
    const configure = (env: Record<string, string>, service: 'events' | 'web' = 'events') => {
      const r = new EnvReader(env);
      readCommonConfig(r, service);
      return () => r.done(service, {});
    };
    expect(configure(base)).toThrow(/NATS_PASSWORD \(or NATS_PASSWORD_EVENTS\) must be set when NODE_ENV=production/);
    expect(configure({ ...base, NATS_PASSWORD: 'a-password-from-a-secret' })).not.toThrow();
    expect(configure({ ...base, NODE_ENV: 'development' })).not.toThrow();
    // The app (web) never connects to the broker: it starts in production without a NATS password.
    expect(configure(base, 'web')).not.toThrow();
  });

  it('refuses a wrong password and a missing one', async () => {
    await expect(as('account', 'not-the-password')).rejects.toThrow(/authorization/i);
    await expect(connect({ servers: broker.url })).rejects.toThrow(/authorization/i);
  });
});

describe('requests made for a caller carry the caller, signed', () => {
  const SECRET = randomBytes(32).toString('hex');
  const caller: Principal = {
    accountId: 'acc_caller',
    displayName: null,
    source: 'token',
    tokenId: 'tok_1',
    tokenName: 't',
    tokenExpiresAt: null,
    scopes: ['recordings:query'],
    dailyMinuteCap: null,
    features: { series: true, ask: true, videoUpload: true, memory: true },
  };
  let recordings: Bus;
  let ask: Bus;
  const seen: string[] = [];
  beforeAll(async () => {
    const creds = (u: string) => natsCredentials(u as 'ask', broker.env);
    recordings = await connectBus(broker.url, 'recordings', '', { ...creds('recordings'), internalSecret: SECRET });
    ask = await connectBus(broker.url, 'ask', '', { ...creds('ask'), internalSecret: SECRET });
    serve(
      recordings.nc,
      BUS.askMeeting,
      async (q, { principal }) => {
        seen.push(principal!.accountId);
        return { status: 'QUEUED', meeting: null };
      },
      () => undefined,
    );
  });
  afterAll(async () => {
    await ask.close();
    await recordings.close();
  });

  const refusal = async (headers: Record<string, string>) => {
    const h = (await import('nats')).headers();
    for (const [k, v] of Object.entries(headers)) h.set(k, v);
    const msg = await ask.nc.request(BUS.askMeeting.subject, JSONCodec().encode({ recordingId: 'rec_1' }), {
      timeout: 2000,
      headers: h,
    });
    return (JSONCodec().decode(msg.data) as { ok: boolean; error?: { code: string } }).error?.code;
  };

  it('answers the caller the ask service signed', async () => {
    expect(await request(ask.nc, BUS.askMeeting, { recordingId: 'rec_1' }, { principal: caller })).toEqual({
      status: 'QUEUED',
      meeting: null,
    });
    expect(seen).toEqual(['acc_caller']);
  });

  it('refuses a request without a caller, and one whose caller is signed with another key', async () => {
    expect(await refusal({})).toBe('UNAUTHORIZED');
    const forged = await signPrincipal(principalKey(randomBytes(32).toString('hex')), {
      ...caller,
      accountId: 'acc_victim',
    });
    expect(await refusal({ 'Mm-Principal': forged })).toBe('UNAUTHORIZED');
    expect(await refusal({ 'Mm-Principal': 'not-a-jwt' })).toBe('UNAUTHORIZED');
    expect(seen).toEqual(['acc_caller']);
    // The bus itself will not send one without its caller.
    await expect(request(ask.nc, BUS.askMeeting, { recordingId: 'rec_1' })).rejects.toThrow(/needs the caller/);
  });

  it('refuses a payload that breaks the table', async () => {
    const err = await request(
      ask.nc,
      BUS.askMeeting,
      { recordingId: '' },
      { principal: caller, unchecked: true },
    ).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(RemoteError);
    expect((err as RemoteError).code).toBe('VALIDATION');
  });
});
